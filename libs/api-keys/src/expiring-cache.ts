/**
 * A map whose entries expire, bounded in size: when full, the oldest entry goes. Expired entries
 * are dropped when read, so no timer runs per entry.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, expiresAt: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, expiresAt });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** The entries not expired at `now`, oldest first. */
  *live(now: number): IterableIterator<[key: string, value: V]> {
    for (const [key, entry] of this.entries) if (entry.expiresAt > now) yield [key, entry.value];
  }

  deleteWhere(predicate: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
