import { createHash } from 'node:crypto';
import { generateApiKey, hashApiKey } from './api-key-secret';

describe('API key generation', () => {
  it('makes keys with the prefix and 32 random bytes', () => {
    const { key } = generateApiKey('pet_test_');
    expect(key).toMatch(/^pet_test_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice('pet_test_'.length), 'base64url')).toHaveLength(32);
  });

  it('keeps only a short visible prefix and the SHA-256 hash of the whole key', () => {
    const { key, prefix, hash } = generateApiKey('pet_live_');
    expect(prefix).toBe(key.slice(0, 13));
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey(key)).toBe(hash);
  });

  it('never makes the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('pet_live_').key));
    expect(keys.size).toBe(1000);
  });
});
