import { createHash, randomBytes } from 'node:crypto';

/** Random bytes in a key: 256 bits, beyond any guessing. */
export const KEY_ENTROPY_BYTES = 32;
/** Characters of the key kept in clear, to recognise it: the prefix and four more. */
const VISIBLE_CHARACTERS = 4;

export interface GeneratedApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  prefix: string;
  hash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new key such as `pet_live_` followed by 43 base64url characters. */
export function generateApiKey(keyPrefix: string): GeneratedApiKey {
  const key = keyPrefix + randomBytes(KEY_ENTROPY_BYTES).toString('base64url');
  return {
    key,
    prefix: key.slice(0, keyPrefix.length + VISIBLE_CHARACTERS),
    hash: hashApiKey(key),
  };
}
