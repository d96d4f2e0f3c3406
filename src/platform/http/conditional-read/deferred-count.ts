/**
 * The rate-limit count of a conditional read, which its answer decides: left on the request by the
 * access guard, taken by whoever learns the answer (ConditionalReadInterceptor, or the response
 * hook for an answer given before it). Kept apart from the rate limiter so that the HTTP edge
 * needs only these two calls.
 */
export interface DeferredCount {
  /** Counts the request against the key's budget: refuses it (429, 503) as the limiter does. */
  count(): Promise<void>;
  /** Writes the budget's headers as they stand, counting nothing: for a 304. */
  describe(): Promise<void>;
}

const DEFERRED = Symbol('deferred rate-limit count');

type Carrier = { [DEFERRED]?: DeferredCount };

/** Leaves the request's count for later. */
export function deferCount(request: object, deferred: DeferredCount): void {
  (request as Carrier)[DEFERRED] = deferred;
}

/** The request's count left for later, if any, removed so that it is settled once. */
export function takeDeferredCount(request: object): DeferredCount | undefined {
  const deferred = (request as Carrier)[DEFERRED];
  if (deferred) delete (request as Carrier)[DEFERRED];
  return deferred;
}
