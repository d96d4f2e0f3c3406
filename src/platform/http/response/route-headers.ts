import { Injectable } from '@nestjs/common';

/**
 * Headers that every response of a route carries, whatever its status: the 401s and 429s of the
 * global guards included, which run before any code of the route. Features declare them at
 * start-up; the response hook (response-headers.ts) adds them with one look-up per request.
 */
@Injectable()
export class RouteHeaders {
  private readonly byRoute = new Map<string, Record<string, string>>();

  /** `url` as the route is declared, such as `/v1/pets/:petId`. */
  add(method: string, url: string, headers: Record<string, string>): void {
    this.byRoute.set(`${method} ${url}`, headers);
  }

  /** The headers of a route; a HEAD request is answered as its GET. */
  of(method: string, url: string | undefined): Record<string, string> | undefined {
    if (url === undefined) return undefined;
    return this.byRoute.get(`${method === 'HEAD' ? 'GET' : method} ${url}`);
  }
}
