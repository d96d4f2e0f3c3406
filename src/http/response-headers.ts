import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

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
const JSON_API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/** Documentation pages need their scripts and styles: they keep all but the CSP. */
const isDocumentationPage = (url: string) => /^\/(v1|admin)\/docs(\/|$|\?)/.test(url);

export function installResponseHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    void reply.header('x-request-id', request.id);
    for (const [name, value] of Object.entries(JSON_API_HEADERS)) {
      if (name === 'content-security-policy' && isDocumentationPage(request.url)) continue;
      if (!reply.hasHeader(name)) void reply.header(name, value);
    }
    return payload;
  });
}
