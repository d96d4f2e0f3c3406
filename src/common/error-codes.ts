/**
 * The closed set of error codes (docs/api.md, "Errors"): each with the HTTP status it answers
 * with and when. The one catalogue: the exception filter maps by it, the OpenAPI document lists
 * it (an enum on `Error.code`, the codes of each response), and docs/api.md is checked against it.
 * Plain data, so that domain errors can name their code without knowing HTTP.
 */
export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    description:
      'A body, query or path value is missing, of the wrong type, out of range, or unknown.',
  },
  malformed_json: { status: 400, description: 'The body is not parseable JSON.' },
  unauthorized: {
    status: 401,
    description:
      'The API key is missing, malformed, unknown or revoked; the response sends `WWW-Authenticate: Bearer`.',
  },
  forbidden: {
    status: 403,
    description:
      'The API key lacks the scope the operation needs; the response sends `WWW-Authenticate: Bearer error="insufficient_scope", scope="<scope>"`.',
  },
  not_found: { status: 404, description: 'No such resource, or no such route.' },
  method_not_allowed: {
    status: 405,
    description: 'A known path with a method it does not support; `Allow` lists the methods.',
  },
  request_timeout: {
    status: 408,
    description:
      'The request (headers and body) did not fully arrive within 10 s; the connection is closed.',
  },
  pet_not_available: {
    status: 409,
    description: 'The pet cannot be ordered: it is not `available` (the message names its status).',
  },
  open_order_limit: {
    status: 409,
    description:
      'The key holds as many open (`placed` or `approved`) orders as its plan allows (the message names the cap).',
  },
  invalid_transition: {
    status: 409,
    description:
      'The order cannot move to that status from its current one (the message names both).',
  },
  pet_has_open_order: {
    status: 409,
    description:
      'An open (`placed` or `approved`) order holds the pet: its status follows the order, and it cannot be deleted.',
  },
  already_exists: {
    status: 409,
    description: 'Another category already has that name (compared case-insensitively).',
  },
  limit_reached: {
    status: 409,
    description:
      'The resource already holds as many items as it may (a pet at most 12 photos); the message names the cap.',
  },
  gone: { status: 410, description: 'The operation has passed its sunset instant.' },
  precondition_failed: {
    status: 412,
    description:
      "`If-Match` names none of the resource's current entity tags: it changed since it was read, and nothing was changed.",
  },
  payload_too_large: { status: 413, description: 'The body is larger than 16 KiB.' },
  unsupported_media_type: { status: 415, description: 'The body is not `application/json`.' },
  idempotency_key_reused: {
    status: 422,
    description: 'The `Idempotency-Key` was already used by this API key with a different body.',
  },
  rate_limited: {
    status: 429,
    description:
      'A rate-limit window of the key (or of the client address, without a valid key) is spent; `Retry-After` says until when.',
  },
  key_temporarily_banned: {
    status: 429,
    description: 'The key is serving a temporary ban; `Retry-After` is the seconds left.',
  },
  internal_error: {
    status: 500,
    description: 'Anything unexpected; the details go to the log, not the client.',
  },
  service_unavailable: {
    status: 503,
    description:
      'The database (or, when failing closed, Redis) is unreachable; `Retry-After` says when to retry.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
