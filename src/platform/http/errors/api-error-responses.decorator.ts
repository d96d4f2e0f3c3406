import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request has missing, malformed or invalid values (`validation_failed`, `malformed_json`)',
  401: 'Missing or invalid API key (`unauthorized`)',
  404: 'The requested resource could not be found (`not_found`)',
  410: 'The operation has passed its sunset date (`gone`)',
  413: 'The request body is larger than 16 KiB (`payload_too_large`)',
  415: 'The request body is not application/json (`unsupported_media_type`)',
  422: 'The Idempotency-Key was already used with another body (`idempotency_key_reused`)',
  429: 'Rate limit exceeded (`rate_limited`) or key temporarily banned (`key_temporarily_banned`)',
  500: 'Unexpected error (`internal_error`)',
  503: 'A dependency is unreachable (`service_unavailable`)',
};

/** Documents the Error body for each of the given statuses. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorBodyDto }),
    ),
  );
}
