import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
 * 429 when the window is spent. No key is needed; one given is counted as the key's.
 */
export function countDocumentationRequests(
  fastify: FastifyInstance,
  limiter: CanActivate,
  prefixes: readonly string[],
): void {
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isUnder(request.url, prefixes)) return;
    const context = {
      getType: () => 'http',
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
      // No route facts: the documentation skips nothing the limiter reads from metadata.
      getHandler: () => countDocumentationRequests,
      getClass: () => Object,
    } as unknown as ExecutionContext;
    try {
      await limiter.canActivate(context);
    } catch (error) {
      sendErrorBody(reply, toErrorResponse(error));
      return reply;
    }
  });
}
