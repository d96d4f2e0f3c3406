import {
  Idempotency,
  IdempotencyKeyReusedError,
  IdempotentRequest,
  IdempotentResult,
} from '../../src/platform/idempotency/idempotency';

/** Idempotency in a map, for unit tests of the use cases: the port's rules, no transaction. */
export class InMemoryIdempotency extends Idempotency {
  private readonly claims = new Map<string, { fingerprint: string; value: unknown }>();

  async once<T>(
    request: IdempotentRequest,
    create: () => Promise<T>,
  ): Promise<IdempotentResult<T>> {
    const id = `${request.scope}|${request.key}`;
    const earlier = this.claims.get(id);
    if (earlier) {
      if (earlier.fingerprint !== request.fingerprint) throw new IdempotencyKeyReusedError();
      // As the port answers a retry: the value as recorded, in JSON.
      return { value: JSON.parse(JSON.stringify(earlier.value)) as T, replayed: true };
    }
    const value = await create();
    this.claims.set(id, { fingerprint: request.fingerprint, value });
    return { value, replayed: false };
  }

  /** Without a transaction, `once` already creates apart from its claim. */
  onceApart<T>(request: IdempotentRequest, create: () => Promise<T>) {
    return this.once(request, create);
  }
}
