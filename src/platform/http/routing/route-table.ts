import { Injectable } from '@nestjs/common';
import Router from 'find-my-way';
import { RouteFacts } from '../route-facts/route-facts';

export interface RouteWithFacts {
  method: string;
  url: string;
  facts: RouteFacts;
}

/**
 * The methods each path of the API answers, learnt from the routes Fastify registers, so that a
 * 405's `Allow` never disagrees with the real routing table; and which routes state facts.
 */
@Injectable()
export class RouteTable {
  private readonly router = Router();
  private readonly methods = new Set<string>();
  private readonly stating: RouteWithFacts[] = [];

  add(method: string | string[], url: string, facts?: RouteFacts): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      this.router.on(m as Router.HTTPMethod, url, () => undefined);
      this.methods.add(m);
      if (facts) this.stating.push({ method: m, url, facts });
    }
  }

  /** The routes that state facts (deprecation, stability), as registered. */
  withFacts(): readonly RouteWithFacts[] {
    return this.stating;
  }

  methodsFor(path: string): string[] {
    return [...this.methods]
      .filter((method) => this.router.find(method as Router.HTTPMethod, path) !== null)
      .sort();
  }
}
