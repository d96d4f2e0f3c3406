import { createHash } from 'node:crypto';
import { DomainError } from '../../common/domain-error';

/** How long a client's Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** A client's promise that requests with this key are retries of one creation. */
export interface IdempotentRequest {
  /** Whose keys these are (an API key): keys of different clients never meet. */
  scope: string;
  key: string;
  /** Fingerprint of the request as sent, telling a retry from another request under the key. */
  fingerprint: string;
}

/** A client's key, and whose it is: a request before its fingerprint is taken. */
export type ClientIdempotencyKey = Omit<IdempotentRequest, 'fingerprint'>;

export interface IdempotentResult<T> {
  value: T;
  /** True when this answers a retry: the value was created by an earlier request. */
  replayed: boolean;
}

export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'idempotency_key_reused';

  constructor() {
    super('This Idempotency-Key was already used with a different body.');
  }
}

/** The fingerprint of a request: a hash of the values that make it what it is. */
export function fingerprintOf(values: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}

/**
 * Port: runs a creation at most once per key. `once` runs `create` unless the key was used
 * before: then it answers the value created then, as recorded in JSON (dates come back as text),
 * (same fingerprint, `replayed`) or throws
 * IdempotencyKeyReusedError (another fingerprint). Atomic under concurrent retries; what `create`
 * stores is stored with the claim of the key, or not at all.
 */
export abstract class Idempotency {
  abstract once<T>(
    request: IdempotentRequest,
    create: () => Promise<T>,
  ): Promise<IdempotentResult<T>>;
}
