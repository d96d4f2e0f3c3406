import type { ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, ErrorCode } from '../../../common/error-codes';
import { ErrorDocumentation } from '../errors/error-documentation';

/** How long a request's headers and body together may take to arrive. */
export const REQUEST_DEADLINE_MS = 10_000;

/** How often Node looks for requests past their deadline: the deadline holds to within this. */
const DEADLINE_CHECK_INTERVAL_MS = 1_000;

/**
 * The Node server settings that make the deadline hold (docs/adr/0025). Node checks deadlines
 * only every `connectionsCheckingInterval` (30 s by default), and when `headersTimeout` (60 s by
 * default) is longer than `requestTimeout` it swaps the two, so that a body trickling in after
 * quick headers was read for 60 to 90 s. Equal timeouts and a check every second keep it at 10 s.
 */
export const REQUEST_DEADLINE_SERVER_OPTIONS: ServerOptions = {
  requestTimeout: REQUEST_DEADLINE_MS,
  headersTimeout: REQUEST_DEADLINE_MS,
  connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS,
};

function errorResponse(
  code: ErrorCode,
  message: string,
  documentation: ErrorDocumentation,
): string {
  const status = ERROR_CODES[code].status;
  const requestId = randomUUID();
  const body = JSON.stringify({
    code,
    message,
    status,
    requestId,
    docUrl: documentation.urlOf(code),
  });
  return (
    `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Node's `clientError` handler: answers what Node refuses before any route runs (a request past
 * its deadline, a request that is not valid HTTP) with the Error body, then closes the
 * connection: the rest of such a request cannot be told from the next one. Fastify's own answer
 * has a body of its own shape.
 */
export function clientErrorAnswerer(
  documentation: ErrorDocumentation,
): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      socket.write(
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? errorResponse(
              'request_timeout',
              `The request did not fully arrive within ${REQUEST_DEADLINE_MS / 1000} s.`,
              documentation,
            )
          : errorResponse(
              'validation_failed',
              error.code === 'HPE_HEADER_OVERFLOW'
                ? 'The request headers are too large: send less than 16 KiB of them.'
                : 'The request is not valid HTTP/1.1.',
              documentation,
            ),
      );
    }
    socket.destroy();
  };
}
