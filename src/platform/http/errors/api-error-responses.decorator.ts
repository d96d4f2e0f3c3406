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
 * Stands for the configured PUBLIC_BASE_URL in the examples' `docUrl`: decorators run before any
 * configuration is read, and the document builder writes the real base in its place.
 */
export const PUBLIC_BASE_URL_PLACEHOLDER = '{PUBLIC_BASE_URL}';

/**
 * A message each code really answers with, for its example; a code without one here shows the
 * catalogue's sentence instead.
 */
const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  malformed_json: 'The request body is not valid JSON.',
  unauthorized: 'An API key is required: send it as "Authorization: Bearer <API_KEY>".',
  forbidden: 'This API key lacks the scope orders:manage, which this operation needs.',
  not_found: 'No pet with id 4.',
  request_timeout: 'The request did not fully arrive within 10 s.',
  pet_not_available: 'Pet 4 is pending, not available: it cannot be ordered.',
  open_order_limit:
    'This key already holds 5 open orders, as many as its plan allows: one must be delivered or cancelled first.',
  invalid_transition: 'Order 7 is delivered: it cannot become cancelled.',
  pet_has_open_order:
    'Pet 4 has an open order, which owns it until the order is delivered or cancelled: it cannot be deleted.',
  already_exists: 'Category 1 is already named "Dogs" (names are compared without regard to case).',
  conflict:
    'The API key 12 was rolled by another request at the same moment, which came first: its secret is the one that roll answered, and this roll changed nothing.',
  gone: 'GET /v1/pets/{petId} was removed on 2030-12-05T00:00:00.000Z; use GET /v1/pets with a status filter.',
  precondition_failed:
    'Pet 4 is at version 2 (ETag "2"), not one the request\'s If-Match names: it changed since it was read. Nothing was changed; read it again before changing it.',
  payload_too_large: 'The request body is larger than 16 KiB.',
  unsupported_media_type: 'The request body must be application/json.',
  idempotency_key_reused: 'This Idempotency-Key was already used with a different body.',
  rate_limited: 'The per-minute limit of 60 requests is reached; retry after the window ends.',
  key_temporarily_banned:
    'Too many requests after being rate limited: banned for 540 more seconds.',
  internal_error: 'An unexpected error occurred.',
  service_unavailable: 'The database is unreachable; retry later.',
};

/** What `POST /v1/pets` with `{"categoryID": 1}` answers. */
const VALIDATION_DETAILS = [
  {
    field: 'categoryID',
    issue: 'unknown_field',
    message:
      'categoryID is not a field of this body: did you mean categoryId? Its fields are name, categoryId, status, externalId, breed, age, birthDate, sex, size, coat, colors, description, attributes, environment, tags.',
  },
  { field: 'name', issue: 'required', message: 'name is required.' },
  { field: 'categoryId', issue: 'required', message: 'categoryId is required.' },
];

/** The Error body a code answers with, as an example of its response. */
export function errorExample(code: ErrorCode): Record<string, unknown> {
  const { status, description } = ERROR_CODES[code];
  const details = code === 'validation_failed' ? { details: VALIDATION_DETAILS } : {};
  const message =
    code === 'validation_failed'
      ? 'categoryID is not a field of this body: did you mean categoryId? Its fields are name, categoryId, status, externalId, breed, age, birthDate, sex, size, coat, colors, description, attributes, environment, tags; name is required; categoryId is required.'
      : (EXAMPLE_MESSAGES[code] ?? description);
  return {
    code,
    message,
    status,
    ...details,
    requestId: '4f9c1a52-0d5e-4a3b-9f57-2c8e6b1d7a10',
    docUrl: `${PUBLIC_BASE_URL_PLACEHOLDER}/docs/errors#${code}`,
  };
}

/**
 * Documents the error responses an operation (or every operation of a controller) may give, by
 * their codes: one response per status, listing its codes with the catalogue's descriptions, and
 * an example of each code's own body.
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
        examples: Object.fromEntries(
          sharing.map((code) => [code, { summary: code, value: errorExample(code) }]),
        ),
      }),
    ),
  );
}
