import { Injectable } from '@nestjs/common';
import Router from 'find-my-way';

/**
 * The methods each path of the API answers, learnt from the routes Fastify registers, so that a
 * 405's `Allow` never disagrees with the real routing table.
 */
@Injectable()
export class RouteTable {
  private readonly router = Router();
  private readonly methods = new Set<string>();

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      this.router.on(m as Router.HTTPMethod, url, () => undefined);
      this.methods.add(m);
    }
  }

  methodsFor(path: string): string[] {
    return [...this.methods]
      .filter((method) => this.router.find(method as Router.HTTPMethod, path) !== null)
      .sort();
  }
}
