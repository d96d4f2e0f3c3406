import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
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

/** A retry came while the first request under its key was still creating, and waited in vain. */
export class IdempotentCreationInProgressError extends DomainError {
  readonly code = 'service_unavailable';
  readonly retryAfterSeconds = 1;

  constructor() {
    super(
      'An earlier request with this Idempotency-Key is still being served; send the retry again after Retry-After to get its answer.',
    );
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

  /**
   * `once`, for a creation kept by a store that commits on its own instead of joining the claim's
   * transaction (the API-key library's): the claim commits first, then `create` runs, then its
   * answer is recorded. A concurrent retry waits for that answer; a creation that fails gives its
   * claim back. Holding no connection while `create` runs, it never waits on a pool that has one
   * connection (the embedded engine's) for a connection it holds itself.
   */
  abstract onceApart<T>(
    request: IdempotentRequest,
    create: () => Promise<T>,
  ): Promise<IdempotentResult<T>>;

  /**
   * `once`, for a creation whose answer holds a secret shown only in it (an API key's): a retry
   * must get that very secret (the client lost the first answer), yet the recorded answer must not
   * hold it readably. It is recorded sealed (AES-256-GCM) under a key derived from the client's
   * Idempotency-Key, which is kept only as its SHA-256: the database holds neither the key nor the
   * secret, and the secret is exactly as safe as the client's Idempotency-Key is unguessable.
   * The answers that hold a secret are API keys', kept by the key library's store: it runs apart.
   */
  async onceSealed<T>(
    request: IdempotentRequest,
    create: () => Promise<T>,
  ): Promise<IdempotentResult<T>> {
    const sealing = sealingOf(request);
    const { value, replayed } = await this.onceApart(
      { ...request, key: sealing.storedKey },
      async () => sealing.seal(await create()),
    );
    return { value: sealing.open<T>(value), replayed };
  }
}

/** A value as recorded by `onceSealed`. */
interface Sealed {
  sealed: 1;
  iv: string;
  data: string;
  tag: string;
}

function sealingOf({ scope, key }: IdempotentRequest) {
  const secret = Buffer.from(
    hkdfSync('sha256', key, scope, 'pet-adoption idempotent answer, sealed', 32),
  );
  return {
    storedKey: `sha256:${createHash('sha256').update(key).digest('hex')}`,
    seal(value: unknown): Sealed {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return {
        sealed: 1,
        iv: iv.toString('base64'),
        data: data.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
      };
    },
    open<T>({ iv, data, tag }: Sealed): T {
      const decipher = createDecipheriv('aes-256-gcm', secret, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]);
      return JSON.parse(text.toString('utf8')) as T;
    },
  };
}
