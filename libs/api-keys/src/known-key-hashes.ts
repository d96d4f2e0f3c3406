/** The first 64 bits of a key's SHA-256 (hex), as a number to sort and search. */
const prefixOf = (hash: string): bigint => BigInt(`0x${hash.slice(0, 16)}`);

/** Additions kept aside before they are merged into the sorted array. */
const MERGE_AFTER = 1_024;

/**
 * The hash prefixes of every API key secret that opens a key, held by every instance (docs/adr/0023),
 * so that a key can be told from a guess without the database: a guess's 64-bit prefix is among a
 * million keys' with a chance of 1 in 18 billion billion / 1,000,000. A sorted `BigUint64Array`,
 * searched by halves: 8 bytes a key (8 MB at 1,000,000 keys), no object per key.
 *
 * A secret that stops opening its key at a known instant (the key expires, or a roll's overlap
 * ends) or already has (revoked, replaced) is kept apart with that instant, which overrides the
 * array: such secrets are few, and the array is rebuilt only when the set is loaded whole again.
 */
export class KnownKeyHashes {
  private sorted = new BigUint64Array(0);
  private readonly added = new Set<bigint>();
  private readonly ending = new Map<bigint, number>();
  /**
   * While a whole load is read (`startLoad` to `replace`), the changes learnt meanwhile: the
   * load's snapshot may predate them, so they are applied again over it, not lost until the next
   * refresh (a key issued during a reload would otherwise be a guess on this instance).
   */
  private duringLoad?: (() => void)[];

  get size(): number {
    return this.sorted.length + this.added.size + this.ending.size;
  }

  has(hash: string, now = Date.now()): boolean {
    const prefix = prefixOf(hash);
    const until = this.ending.get(prefix);
    if (until !== undefined) return until > now;
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

  /** Adds a secret that opens its key until `until` (ms since the epoch; Infinity: for good). */
  add(hash: string, until = Infinity): void {
    this.duringLoad?.push(() => this.add(hash, until));
    const prefix = prefixOf(hash);
    if (until !== Infinity || this.ending.has(prefix)) {
      this.ending.set(prefix, until);
      return;
    }
    this.added.add(prefix);
    if (this.added.size >= MERGE_AFTER) this.merge();
  }

  /** A secret that no longer opens its key (revoked, replaced). */
  remove(hash: string): void {
    this.duringLoad?.push(() => this.remove(hash));
    this.ending.set(prefixOf(hash), 0);
  }

  /** Marks the start of reading a whole load, which `replace` ends. */
  startLoad(): void {
    this.duringLoad = [];
  }

  /** A load that failed: the set stays as it is, and stops keeping changes aside. */
  abandonLoad(): void {
    this.duringLoad = undefined;
  }

  /** Replaces the set with these secrets, then applies what changed since `startLoad`. */
  replace(secrets: Iterable<{ hash: string; until: number }>): void {
    const changes = this.duringLoad ?? [];
    this.duringLoad = undefined;
    const prefixes: bigint[] = [];
    this.ending.clear();
    this.added.clear();
    for (const { hash, until } of secrets) {
      if (until === Infinity) prefixes.push(prefixOf(hash));
      else this.ending.set(prefixOf(hash), until);
    }
    this.sorted = BigUint64Array.from(prefixes).sort();
    for (const change of changes) change();
  }

  private merge(): void {
    this.sorted = BigUint64Array.from([...this.sorted, ...this.added]).sort();
    this.added.clear();
  }
}
