import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from '../../../common/error-codes';
import { ErrorBodyDto } from './error-body.dto';

/** What an operation that reads a JSON body may answer because of the body alone. */
export const BODY_ERRORS = [
  'validation_failed',
  'malformed_json',
  'payload_too_large',
  'unsupported_media_type',
] as const satisfies readonly ErrorCode[];

/**
 * What every operation behind an API key and the plan's rate limits may answer before it runs:
 * the key guard, the throttler and the service's own failures.
 */
export const KEY_PROTECTED_ERRORS = [
  'unauthorized',
  'rate_limited',
  'key_temporarily_banned',
  'internal_error',
  'service_unavailable',
] as const satisfies readonly ErrorCode[];

/**
 * Documents the error responses an operation (or every operation of a controller) may give, by
 * their codes: one response per status, listing its codes with the catalogue's descriptions.
 */
export function ApiErrorResponses(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ...[...byStatus].map(([status, sharing]) =>
      ApiResponse({
        status,
        type: ErrorBodyDto,
        description: sharing
          .map((code) => `\`${code}\`: ${ERROR_CODES[code].description}`)
          .join(' '),
      }),
    ),
  );
}
