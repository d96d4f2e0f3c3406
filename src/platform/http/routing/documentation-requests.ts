import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorDocumentation } from '../errors/error-documentation';
import { sendErrorBody, toErrorResponse } from '../errors/error-mapping';

/**
 * Whether a URL is one of the documentation's under `prefixes` (the page, its assets, the
 * OpenAPI document in each format).
 */
const isUnder = (url: string, prefixes: readonly string[]) =>
  prefixes.some((prefix) => url.startsWith(prefix) && /^($|[/?.-])/.test(url.slice(prefix.length)));

/**
 * The documentation under /v1 (`/v1/docs` and its assets, `/v1/openapi.json`) is served by
 * @nestjs/swagger's own Fastify routes, which no Nest guard sees. This hook runs the rate limiter
 * on them as on every other /v1 request (docs/adr/0025): counted, with the headers, refused with
 * 429 when the window is spent. No key is needed; one given is counted as the key's. Every other
 * request passes synchronously: an async hook would cost each of them a promise and a tick.
 */
export function countDocumentationRequests(
  fastify: FastifyInstance,
  limiter: CanActivate,
  prefixes: readonly string[],
  documentation: ErrorDocumentation,
): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (!isUnder(request.url, prefixes)) return done();
    const context = {
      getType: () => 'http',
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
      // No route facts: the documentation skips nothing the limiter reads from metadata.
      getHandler: () => countDocumentationRequests,
      getClass: () => Object,
    } as unknown as ExecutionContext;
    // Refused: the error body is the answer, and the request goes no further (no done()).
    Promise.resolve()
      .then(() => limiter.canActivate(context))
      .then(
        () => done(),
        (error: unknown) => sendErrorBody(reply, toErrorResponse(error), documentation),
      )
      .catch((error: Error) => done(error));
  });
}
