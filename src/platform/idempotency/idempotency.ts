/** How long a client's Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
