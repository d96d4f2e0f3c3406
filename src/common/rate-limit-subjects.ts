/**
 * Whom the rate limiter counts a key's requests for: one subject per key, whatever instance
 * counts them. Plain data, so that whoever asks about a key's budget names it the same way.
 */
export function keySubject(keyId: string): string {
  return `key:${keyId}`;
}
