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

  /**
   * Whether a route serves this method and path as Fastify and Nest route it: Nest hands a match
   * with an empty parameter (`/v1/pets/` for `/v1/pets/:petId`) to its not-found handler.
   * A path that cannot be decoded is served by no route.
   */
  serves(method: string, path: string): boolean {
    let match;
    try {
      match = this.router.find(method as Router.HTTPMethod, path);
    } catch {
      return false;
    }
    if (match === null) return false;
    for (const name in match.params) {
      if (match.params[name] === '' && name !== '*') return false;
    }
    return true;
  }

  methodsFor(path: string): string[] {
    return [...this.methods].filter((method) => this.serves(method, path)).sort();
  }
}
