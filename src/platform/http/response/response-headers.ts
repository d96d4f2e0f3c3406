import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { RouteFactHeaders } from '../route-facts/route-fact-headers';
import { routeFactsOfRequest } from '../route-facts/route-facts';

/** A client's request id is echoed only if it is short and plain; otherwise a new one is made. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's request id: the client's `X-Request-Id` when acceptable, else a random UUID. */
export function requestId(request: {
  headers: Record<string, string | string[] | undefined>;
}): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Headers suitable for a JSON API: nothing is sniffed, framed, cached or referred. */
const JSON_API_HEADERS: [string, string][] = [
  ['x-content-type-options', 'nosniff'],
  ['cache-control', 'no-store'],
  ['referrer-policy', 'no-referrer'],
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
];
/** Documentation pages need their scripts and styles: they keep all but the CSP. */
const DOCUMENTATION_HEADERS = JSON_API_HEADERS.filter(
  ([name]) => name !== 'content-security-policy',
);
const isDocumentationPage = (url: string) => /^\/(v1|admin)\/docs(\/|$|\?)/.test(url);

/**
 * Adds the request id, the headers of the route's facts (deprecation, stability) and the JSON API
 * headers to every response, whatever its status.
 */
export function installResponseHeaders(
  fastify: FastifyInstance,
  routeFactHeaders: RouteFactHeaders,
): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    const facts = routeFactsOfRequest(request);
    if (facts) void reply.headers(routeFactHeaders.of(facts));
    const defaults = isDocumentationPage(request.url) ? DOCUMENTATION_HEADERS : JSON_API_HEADERS;
    for (const [name, value] of defaults)
      if (!reply.hasHeader(name)) void reply.header(name, value);
    done(null, payload);
  });
}
