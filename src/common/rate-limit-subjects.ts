/**
 * Whom the rate limiter counts a key's requests for: one subject per key, whatever instance
 * counts them. Plain data, so that whoever asks about a key's budget names it the same way.
 */
export function keySubject(keyId: string): string {
  return `key:${keyId}`;
}

/**
 * Whom a key's requests in one of its budgets apart from its plan's are counted for (`conditional`,
 * the 304s of its conditional reads; `self`, its own view): a subject of its own, beside the key's.
 */
export function keyBudgetSubject(keyId: string, budget: string): string {
  return `key:${keyId}:${budget}`;
}
