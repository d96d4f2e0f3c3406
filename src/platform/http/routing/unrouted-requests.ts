import type { IncomingMessage } from 'node:http';
import { pathProblemOf } from '../request/strict-path';
import { queryProblemOf } from '../request/strict-query';
import { RouteTable } from './route-table';

/** The catch-all route of the fallback controller: every unrouted request under /v1 ends there. */
export const FALLBACK_ROUTE = '/v1/*';
/** What an unrouted request's URL becomes, so that the router hands it to the fallback route. */
const FALLBACK_URL = '/v1/-';

const tables = new WeakMap<object, RouteTable>();

/** Lets `routeUnroutedToFallback` of this Fastify instance consult the application's routes. */
export function useRouteTable(fastify: object, routes: RouteTable): void {
  tables.set(fastify, routes);
}

/**
 * Fastify's `rewriteUrl`: a request under /v1 that no operation serves is routed to the fallback
 * controller, so that it passes the same guards (rate limit, headers) as the operations. Left to
 * Fastify and Nest, `/v1` itself and a path whose parameter is empty (`/v1/pets/`) reach Nest's
 * not-found handler instead: answered before any guard, uncounted and without rate-limit headers.
 * So is a request whose query string or path is not validly percent-encoded (400). The fallback reads the
 * request's `originalUrl`.
 */
export function routeUnroutedToFallback(this: object, request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  // A query that cannot be decoded is refused by the fallback, whatever the operation (the admin
  // API's too): one without query parameters would otherwise never look at it.
  if (query !== -1 && url.includes('%', query) && queryProblemOf(url) !== null) {
    return FALLBACK_URL;
  }
  // So is a path that cannot be decoded: the router would read it as no route (a 404).
  if (url.includes('%') && pathProblemOf(url) !== null) return FALLBACK_URL;
  if (!url.startsWith('/v1') || (url.length > 3 && url[3] !== '/' && url[3] !== '?')) return url;
  const routes = tables.get(this);
  const path = query === -1 ? url : url.slice(0, query);
  return routes && !routes.serves(request.method ?? 'GET', path) ? FALLBACK_URL : url;
}
