import { createHash, randomBytes } from 'node:crypto';
import { KnownKeyHashes } from './known-key-hashes';

const hash = () => createHash('sha256').update(randomBytes(32)).digest('hex');

describe('KnownKeyHashes', () => {
  it('knows the keys it was given, added one by one or all at once, and no others', () => {
    const known = new KnownKeyHashes();
    const loaded = Array.from({ length: 3000 }, hash);
    known.replace(loaded);
    const added = Array.from({ length: 2500 }, hash);
    for (const h of added) known.add(h);
    expect(known.size).toBe(5500);
    for (const h of [...loaded, ...added]) expect(known.has(h)).toBe(true);
    for (let i = 0; i < 5000; i++) expect(known.has(hash())).toBe(false);
  });

  it('forgets everything on a replace, unless told to keep it', () => {
    const known = new KnownKeyHashes();
    const [a, b, c] = [hash(), hash(), hash()];
    known.add(a);
    known.replace([b], true);
    expect([a, b].every((h) => known.has(h))).toBe(true);
    known.replace([c]);
    expect([known.has(a), known.has(b), known.has(c)]).toEqual([false, false, true]);
  });
});
