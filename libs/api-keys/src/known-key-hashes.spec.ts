import { createHash, randomBytes } from 'node:crypto';
import { KnownKeyHashes } from './known-key-hashes';

const hash = () => createHash('sha256').update(randomBytes(32)).digest('hex');
const forGood = (h: string) => ({ hash: h, until: Infinity });

describe('KnownKeyHashes', () => {
  it('knows the keys it was given, added one by one or all at once, and no others', () => {
    const known = new KnownKeyHashes();
    const loaded = Array.from({ length: 3000 }, hash);
    known.replace(loaded.map(forGood));
    const added = Array.from({ length: 2500 }, hash);
    for (const h of added) known.add(h);
    expect(known.size).toBe(5500);
    for (const h of [...loaded, ...added]) expect(known.has(h)).toBe(true);
    for (let i = 0; i < 5000; i++) expect(known.has(hash())).toBe(false);
  });

  it('forgets everything on a replace', () => {
    const known = new KnownKeyHashes();
    const [a, b, c] = [hash(), hash(), hash()];
    known.add(a);
    known.add(b, 5_000);
    known.replace([forGood(c)]);
    expect([known.has(a, 0), known.has(b, 0), known.has(c, 0)]).toEqual([false, false, true]);
  });

  it('knows a secret with an end until that instant, and not from it on', () => {
    const known = new KnownKeyHashes();
    const [expiring, rolled] = [hash(), hash()];
    known.add(expiring, 10_000);
    known.replace([forGood(hash()), { hash: rolled, until: 20_000 }]);
    known.add(expiring, 10_000);
    expect([known.has(expiring, 9_999), known.has(expiring, 10_000)]).toEqual([true, false]);
    expect([known.has(rolled, 19_999), known.has(rolled, 20_000)]).toEqual([true, false]);
  });

  it('forgets a removed secret at once, wherever it was kept, and knows it again when added back with an end', () => {
    const known = new KnownKeyHashes();
    const [loaded, added, merged] = [hash(), hash(), hash()];
    known.replace([forGood(loaded)]);
    known.add(added);
    for (let i = 0; i < 1_100; i++) known.add(i === 5 ? merged : hash());
    for (const h of [loaded, added, merged]) {
      expect(known.has(h, 0)).toBe(true);
      known.remove(h);
      expect(known.has(h, 0)).toBe(false);
    }
    known.add(added, 50);
    expect([known.has(added, 49), known.has(added, 50)]).toEqual([true, false]);
  });

  it('keeps what it learnt while a whole load was read, over the load’s older snapshot', () => {
    const known = new KnownKeyHashes();
    const [old, issued, revoked, failedLoad] = [hash(), hash(), hash(), hash()];
    known.replace([forGood(old), forGood(revoked)]);
    known.startLoad();
    known.add(issued);
    known.remove(revoked);
    known.replace([forGood(old), forGood(revoked)]);
    expect([known.has(old, 0), known.has(issued, 0), known.has(revoked, 0)]).toEqual([
      true,
      true,
      false,
    ]);
    known.startLoad();
    known.abandonLoad();
    known.add(failedLoad);
    known.replace([forGood(old)]);
    expect(known.has(failedLoad, 0)).toBe(false);
  });
});
