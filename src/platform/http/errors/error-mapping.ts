import { HttpException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiKeyErrorCode, ApiKeyRequestError } from '@pet-adoption/api-keys';
import { RateLimitErrorCode } from '@pet-adoption/rate-limit';
import { DomainError } from '../../../common/domain-error';
import { ERROR_CODES, ErrorCode, isErrorCode } from '../../../common/error-codes';
import { InsufficientScopeError } from '../../../common/scopes';
import { isDatabaseUnavailable, isTransactionConflict } from '../../database/database-errors';
import { ApiError, ErrorDetail } from './api-error';
import { ErrorDocumentation } from './error-documentation';

/** Seconds a client should wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Seconds a client should wait before retrying while a disk the service writes to is full: an
 * upload's spool frees itself as uploads end, a full photo directory waits for its operator.
 */
const DISK_FULL_RETRY_AFTER_SECONDS = 60;

/** The libraries name codes of their own: each must be a catalogued one, or this does not compile. */
const catalogued = (code: ApiKeyErrorCode | RateLimitErrorCode): ErrorCode => code;

/** The code an HttpException of this status gets when whoever raised it named none. */
const DEFAULT_CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** Errors Fastify raises while reading a request, before any handler runs. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    message:
      'The request body is larger than the operation takes: 16 KiB of JSON, 10 MiB of image.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message:
      'The request body must be application/json (or an image, where an operation takes one).',
  },
  FST_ERR_BAD_URL: {
    code: 'validation_failed',
    message: 'The URL is not validly percent-encoded.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'malformed_json',
    message: 'The Content-Length header does not match the body.',
  },
};

/**
 * Whether the client closed its connection before its request body had arrived: Node's request
 * stream fails with ECONNRESET and the message `aborted`. The same code from the database's
 * socket reads `read ECONNRESET`, so only this message is the client's, and no outage.
 */
function isAbortedUpload(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' && message === 'aborted';
}

/**
 * Whether a file could not be written for want of space (ENOSPC) or of quota (EDQUOT): the
 * upload spool's (TMPDIR), the local photo storage's. The request is sound and may succeed later.
 */
function isDiskFull(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return code === 'ENOSPC' || code === 'EDQUOT';
}

export interface ErrorResponse {
  status: number;
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
  /** For `validation_failed`, what is wrong with each input, when the inputs are known. */
  details?: readonly ErrorDetail[];
  /** Whether this is a fault of the service, to be logged with its details. */
  unexpected: boolean;
}

function answer(
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): ErrorResponse {
  return { status: ERROR_CODES[code].status, code, message, headers, unexpected: false };
}

function messageOf(response: unknown, fallback: string): string {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown })?.message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : fallback;
}

/** The catalogued code of an HttpException: the one its body names, or its status's default. */
function codeOf(error: HttpException): ErrorCode | undefined {
  const named = (error.getResponse() as { code?: unknown })?.code;
  if (named !== undefined) return isErrorCode(named) ? named : undefined;
  return DEFAULT_CODE_OF_STATUS[error.getStatus()];
}

/**
 * A domain error that refuses for now, not for good (a full image queue), says when to come back
 * as `retryAfterSeconds`: the answer carries it as Retry-After.
 */
function retryAfterOf(error: DomainError): Record<string, string> {
  const { retryAfterSeconds } = error as { retryAfterSeconds?: unknown };
  return typeof retryAfterSeconds === 'number' ? { 'retry-after': String(retryAfterSeconds) } : {};
}

/**
 * A domain error that knows which rule its input broke (an image's side, its megapixels) says so
 * as `details`, entries of the Error body's shape: the answer carries them, as for any input.
 */
function detailsOf(error: DomainError): { details?: readonly ErrorDetail[] } {
  const { details } = error as { details?: unknown };
  return error.code === 'validation_failed' && Array.isArray(details) && details.length > 0
    ? { details: details as readonly ErrorDetail[] }
    : {};
}

/** Turns anything thrown while serving a request into the Error body and its status. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ApiError) {
    const response = answer(error.code, error.message, error.headers);
    return error.details ? { ...response, details: error.details } : response;
  }
  if (error instanceof InsufficientScopeError) {
    // RFC 6750 §3.1: the challenge names the scope that would do.
    return answer(error.code, error.message, {
      'www-authenticate': `Bearer error="insufficient_scope", scope="${error.scope}"`,
    });
  }
  if (error instanceof DomainError) {
    return { ...answer(error.code, error.message, retryAfterOf(error)), ...detailsOf(error) };
  }
  if (error instanceof ApiKeyRequestError) return answer(catalogued(error.code), error.message);
  if (error instanceof HttpException) {
    const code = codeOf(error);
    if (code) return answer(code, messageOf(error.getResponse(), error.message));
  }
  const fastifyCode = (error as { code?: unknown })?.code;
  if (typeof fastifyCode === 'string' && Object.hasOwn(FASTIFY_ERRORS, fastifyCode)) {
    const { code, message } = FASTIFY_ERRORS[fastifyCode];
    return answer(code, message);
  }
  if (isAbortedUpload(error)) {
    // Nobody is left to read it; the request log still shows what became of the request.
    return answer('malformed_json', 'The request body ended before its declared length.');
  }
  if (isDatabaseUnavailable(error)) {
    return answer('service_unavailable', 'The database is unreachable; retry later.', {
      'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  if (isDiskFull(error)) {
    // The client's request is sound: 503, and a log with the details, since someone must act.
    return {
      ...answer('service_unavailable', 'The service has no room to store this now; retry later.', {
        'retry-after': String(DISK_FULL_RETRY_AFTER_SECONDS),
      }),
      unexpected: true,
    };
  }
  if (isTransactionConflict(error)) {
    // Still a deadlock or a serialization failure after the transaction's retries (sql-statements).
    return answer(
      'service_unavailable',
      'The database ended this request to resolve a conflict with others; retry.',
      { 'retry-after': '1' },
    );
  }
  return { ...answer('internal_error', 'An unexpected error occurred.'), unexpected: true };
}

/**
 * Writes the Error body of an error response: the code, message and status, the details when
 * there are any, the request's id (as its `X-Request-Id` says) and where the documentation
 * explains the code.
 */
export function sendErrorBody(
  reply: FastifyReply,
  { status, code, message, headers, details }: ErrorResponse,
  documentation: ErrorDocumentation,
): void {
  void reply
    .status(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send({
      code,
      message,
      status,
      ...(details ? { details } : {}),
      requestId: reply.request.id,
      docUrl: documentation.urlOf(code),
    });
}
