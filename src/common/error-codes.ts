/**
 * The closed set of error codes (docs/api.md, "Errors"): each with the HTTP status it answers
 * with, when, and what a client does about it. The one catalogue: the exception filter maps by
 * it, the OpenAPI document lists it (an enum on `Error.code`, the codes of each response), the
 * errors page every body's `docUrl` points at is written from it, and docs/api.md is checked
 * against it. Plain data, so that domain errors can name their code without knowing HTTP.
 */
export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    description:
      'A body, query or path value is missing, of the wrong type, out of range, or unknown.',
    remedy:
      "Correct each input `details` names (its issue, and how to put it right) and send the request again; the OpenAPI document gives every field's rules.",
  },
  malformed_json: {
    status: 400,
    description: 'The body is not parseable JSON.',
    remedy:
      'Send the body as valid JSON (RFC 8259), such as `JSON.stringify` writes, with a `Content-Length` that matches it.',
  },
  unauthorized: {
    status: 401,
    description:
      'The API key is missing, malformed, unknown or revoked; the response sends `WWW-Authenticate: Bearer`.',
    remedy:
      'Send a valid API key, not revoked or expired, as `Authorization: Bearer <API_KEY>`; an operator issues keys (`npm run apikey`, or the admin API).',
  },
  forbidden: {
    status: 403,
    description:
      'The API key lacks the scope the operation needs; the response sends `WWW-Authenticate: Bearer error="insufficient_scope", scope="<scope>"`.',
    remedy:
      "Use a key with the scope the `WWW-Authenticate` challenge names (each operation's scope is in the OpenAPI document, `x-required-scopes`), or ask an operator for one.",
  },
  not_found: {
    status: 404,
    description: 'No such resource, or no such route.',
    remedy:
      "Check the id and the path: a deleted resource, or another key's order, is not found; the OpenAPI document lists every path.",
  },
  method_not_allowed: {
    status: 405,
    description: 'A known path with a method it does not support; `Allow` lists the methods.',
    remedy: 'Use one of the methods the `Allow` header lists for this path.',
  },
  request_timeout: {
    status: 408,
    description:
      'The request (headers and body) did not fully arrive within 10 s; the connection is closed.',
    remedy:
      'Send the whole request, headers and body, within 10 s of starting it, on a new connection.',
  },
  pet_not_available: {
    status: 409,
    description: 'The pet cannot be ordered: it is not `available` (the message names its status).',
    remedy: 'Choose a pet whose status is `available` (`GET /v1/pets?status=available`).',
  },
  open_order_limit: {
    status: 409,
    description:
      'The key holds as many open (`placed` or `approved`) orders as its plan allows (the message names the cap).',
    remedy:
      "Complete or cancel one of the key's open orders first, or use a plan with a higher cap.",
  },
  invalid_transition: {
    status: 409,
    description:
      'The order cannot move to that status from its current one (the message names both).',
    remedy:
      'Read the order to see its status: it moves only from `placed` to `approved` to `delivered`, or to `cancelled` while `placed` or `approved`.',
  },
  pet_has_open_order: {
    status: 409,
    description:
      'An open (`placed` or `approved`) order holds the pet: its status follows the order, and it cannot be deleted.',
    remedy:
      'Wait until the order is delivered or cancelled (or cancel it), then change the status or delete the pet; other fields may change meanwhile.',
  },
  already_exists: {
    status: 409,
    description:
      'Another category already has that name (compared case-insensitively), or another animal of the organisation that `externalId`.',
    remedy:
      'Choose another name or external id, or first change the category or animal that holds it (`GET /v1/pets?externalId=` finds the animal).',
  },
  conflict: {
    status: 409,
    description:
      'Another request changed the resource at the same moment and came first (simultaneous rolls of one key: one wins); nothing of this request was applied.',
    remedy:
      'Read the resource again: the request that came first has answered with what it did (the winning roll, its secret); repeat yours only if it is still wanted.',
  },
  limit_reached: {
    status: 409,
    description:
      'The resource already holds as many items as it may (a pet at most 12 photos; a key as many webhook endpoints, or open applications, as its plan allows); the message names the cap.',
    remedy:
      'Remove one of the items (a photo: deletePetPhoto; a webhook endpoint: deleteWebhookEndpoint) before adding another.',
  },
  duplicate_application: {
    status: 409,
    description:
      'This API key already has an open (`submitted`, `under_review` or `approved`) application for this pet with this applicant email.',
    remedy:
      'Read the open application (`GET /v1/applications?petId=`) and change it, or withdraw it before applying again.',
  },
  gone: {
    status: 410,
    description: 'The operation has passed its sunset instant.',
    remedy:
      'Use the successor operation that the `Link: <…>; rel="successor-version"` header names.',
  },
  precondition_failed: {
    status: 412,
    description:
      "`If-Match` names none of the resource's current entity tags: it changed since it was read, and nothing was changed.",
    remedy:
      'Read the resource again, apply your change to what you read, and send it with the new `ETag` in `If-Match`.',
  },
  payload_too_large: {
    status: 413,
    description: 'The body is larger than 16 KiB.',
    remedy: 'Send a body of at most 16 KiB.',
  },
  unsupported_media_type: {
    status: 415,
    description: 'The body is not `application/json`.',
    remedy:
      'Send the body with `Content-Type: application/json` (or `application/merge-patch+json` where the operation takes it).',
  },
  idempotency_key_reused: {
    status: 422,
    description: 'The `Idempotency-Key` was already used by this API key with a different body.',
    remedy:
      'Use a new `Idempotency-Key` for a different body; repeat a key only to retry the very same request.',
  },
  rate_limited: {
    status: 429,
    description:
      'A rate-limit window of the key (or of the client address, without a valid key) is spent; `Retry-After` says until when.',
    remedy:
      'Wait the seconds `Retry-After` gives, then retry; the `RateLimit` header tells how much is left, so spread requests or use a plan with higher limits.',
  },
  key_temporarily_banned: {
    status: 429,
    description: 'The key is serving a temporary ban; `Retry-After` is the seconds left.',
    remedy:
      'Send nothing with this key until `Retry-After` seconds have passed: each request refused while limited counts toward the ban.',
  },
  internal_error: {
    status: 500,
    description: 'Anything unexpected; the details go to the log, not the client.',
    remedy:
      "Retry later; if it persists, give the operator the error's `requestId`: the log holds the details.",
  },
  service_unavailable: {
    status: 503,
    description:
      'The database (or, when failing closed, Redis) is unreachable, or the instance has no room for an upload just now; `Retry-After` says when to retry.',
    remedy: 'Retry after the seconds `Retry-After` gives.',
  },
} as const satisfies Record<string, { status: number; description: string; remedy: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
