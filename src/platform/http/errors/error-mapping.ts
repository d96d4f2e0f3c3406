import { HttpException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiKeyRequestError } from '@pet-adoption/api-keys';
import { DomainError } from '../../../common/domain-error';
import { isDatabaseUnavailable } from '../../database/database-errors';
import { ApiError } from './api-error';

/** Seconds a client should wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const STATUS_OF_DOMAIN_CODE: Record<string, number> = {
  validation_failed: 400,
  not_found: 404,
  gone: 410,
  idempotency_key_reused: 422,
};

/** The code an error of this status gets when whoever raised it did not name one. */
const DEFAULT_CODE_OF_STATUS: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'idempotency_key_reused',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** Errors Fastify raises while reading a request, before any handler runs. */
const FASTIFY_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is larger than 16 KiB.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'The request body must be application/json.',
  },
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'validation_failed',
    message: 'The URL is not validly percent-encoded.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'malformed_json',
    message: 'The Content-Length header does not match the body.',
  },
};

export interface ErrorResponse {
  status: number;
  code: string;
  message: string;
  headers: Record<string, string>;
  /** Whether this is a fault of the service, to be logged with its details. */
  unexpected: boolean;
}

function messageOf(response: unknown, fallback: string): string {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown })?.message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : fallback;
}

/** Turns anything thrown while serving a request into the Error body and its status. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ApiError) {
    const { status, code, message, headers } = error;
    return { status, code, message, headers, unexpected: false };
  }
  if (
    (error instanceof DomainError || error instanceof ApiKeyRequestError) &&
    STATUS_OF_DOMAIN_CODE[error.code]
  ) {
    const status = STATUS_OF_DOMAIN_CODE[error.code];
    return { status, code: error.code, message: error.message, headers: {}, unexpected: false };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse() as { code?: unknown } | string;
    const named = typeof response === 'object' && typeof response.code === 'string';
    const code = named ? (response.code as string) : DEFAULT_CODE_OF_STATUS[status];
    if (code) {
      return {
        status,
        code,
        message: messageOf(response, error.message),
        headers: {},
        unexpected: false,
      };
    }
  }
  const fastifyCode = (error as { code?: unknown })?.code;
  if (typeof fastifyCode === 'string' && FASTIFY_ERRORS[fastifyCode]) {
    return { ...FASTIFY_ERRORS[fastifyCode], headers: {}, unexpected: false };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      code: 'service_unavailable',
      message: 'The database is unreachable; retry later.',
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      unexpected: false,
    };
  }
  return {
    status: 500,
    code: 'internal_error',
    message: 'An unexpected error occurred.',
    headers: {},
    unexpected: true,
  };
}

/** Writes the Error body of an error response. */
export function sendErrorBody(
  reply: FastifyReply,
  { status, code, message, headers }: ErrorResponse,
): void {
  void reply
    .status(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send({ code, message, status });
}
