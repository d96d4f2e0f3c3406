/** The first 64 bits of a key's SHA-256 (hex), as a number to sort and search. */
const prefixOf = (hash: string): bigint => BigInt(`0x${hash.slice(0, 16)}`);

/** Additions kept aside before they are merged into the sorted array. */
const MERGE_AFTER = 1_024;

/**
 * The hash prefixes of every API key that exists, held by every instance (docs/adr/0023), so that
 * a key can be told from a guess without the database: a guess's 64-bit prefix is among a million
 * keys' with a chance of 1 in 18 billion billion / 1,000,000. A sorted `BigUint64Array`, searched
 * by halves: 8 bytes a key (8 MB at 1,000,000 keys), no object per key.
 */
export class KnownKeyHashes {
  private sorted = new BigUint64Array(0);
  private readonly added = new Set<bigint>();

  get size(): number {
    return this.sorted.length + this.added.size;
  }

  has(hash: string): boolean {
    const prefix = prefixOf(hash);
    if (this.added.has(prefix)) return true;
    let low = 0;
    let high = this.sorted.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.sorted[middle];
      if (value === prefix) return true;
      if (value < prefix) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  add(hash: string): void {
    this.added.add(prefixOf(hash));
    if (this.added.size >= MERGE_AFTER) this.replace([], true);
  }

  /** Replaces the set with these hashes (and, with `keepCurrent`, what it holds already). */
  replace(hashes: Iterable<string>, keepCurrent = false): void {
    const prefixes: bigint[] = keepCurrent ? [...this.sorted, ...this.added] : [];
    for (const hash of hashes) prefixes.push(prefixOf(hash));
    this.sorted = BigUint64Array.from(prefixes).sort();
    this.added.clear();
  }
}
