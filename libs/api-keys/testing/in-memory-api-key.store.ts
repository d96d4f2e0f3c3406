import { ApiKeyRecord, NewApiKeyRecord } from '../src/api-key';
import { ApiKeyStore, KeyHash, RollCondition } from '../src/api-key-store';

const keyHashOf = ({
  id,
  hash,
  previousHash,
  previousHashExpiresAt,
  expiresAt,
  revokedAt,
}: ApiKeyRecord): KeyHash => ({
  id,
  hash,
  previousHash,
  previousHashExpiresAt,
  expiresAt,
  revokedAt,
});

/** An ApiKeyStore in memory, for tests. Counts look-ups so tests can see the cache at work. */
export class InMemoryApiKeyStore extends ApiKeyStore {
  readonly records: ApiKeyRecord[] = [];
  /** When each key last changed, by its id: the store's clock is `now`. */
  private readonly changed = new Map<string, number>();
  lookUps = 0;
  now: () => number = Date.now;

  async insert(key: NewApiKeyRecord): Promise<ApiKeyRecord> {
    const record: ApiKeyRecord = {
      ...key,
      id: String(this.records.length + 1),
      previousHash: null,
      previousHashExpiresAt: null,
      createdAt: new Date(this.now()),
      revokedAt: null,
      lastUsedAt: null,
      rolledAt: null,
    };
    this.records.push(record);
    this.changed.set(record.id, this.now());
    return { ...record };
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    this.lookUps++;
    const record = this.records.find((r) => r.hash === hash || r.previousHash === hash);
    return record ? { ...record } : null;
  }

  async findById(id: string): Promise<ApiKeyRecord | null> {
    const record = this.records.find((r) => r.id === id);
    return record ? { ...record } : null;
  }

  async findByIds(ids: readonly string[]): Promise<ApiKeyRecord[]> {
    this.lookUps++;
    return this.records.filter((r) => ids.includes(r.id)).map((r) => ({ ...r }));
  }

  async list(organizationId?: string): Promise<ApiKeyRecord[]> {
    return this.records
      .filter((r) => organizationId === undefined || r.organizationId === organizationId)
      .map((r) => ({ ...r }));
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const record = this.records.find((r) => r.id === id && !r.revokedAt);
    if (record) {
      record.revokedAt = at;
      this.changed.set(id, this.now());
    }
    return record !== undefined;
  }

  async roll(
    id: string,
    secret: { hash: string; prefix: string },
    previousValidUntil: Date,
    { at, receivedAt, expiresAt }: RollCondition,
  ): Promise<ApiKeyRecord | null> {
    const record = this.records.find(
      (r) =>
        r.id === id &&
        !r.revokedAt &&
        (r.expiresAt === null || r.expiresAt.getTime() > at.getTime()) &&
        (receivedAt === undefined || r.rolledAt === null || r.rolledAt < receivedAt),
    );
    if (!record) return null;
    record.rolledAt = at;
    if (expiresAt !== undefined) record.expiresAt = expiresAt;
    record.previousHash = record.hash;
    record.previousHashExpiresAt = previousValidUntil;
    record.hash = secret.hash;
    record.prefix = secret.prefix;
    this.changed.set(id, this.now());
    return { ...record };
  }

  async recordUse(ids: string[], at: Date): Promise<void> {
    for (const record of this.records) if (ids.includes(record.id)) record.lastUsedAt = at;
  }

  async count(): Promise<number> {
    return this.records.length;
  }

  async hashesAfter(afterId: string | null, limit: number): Promise<KeyHash[]> {
    return this.records
      .filter((r) => !r.revokedAt && Number(r.id) > Number(afterId ?? 0))
      .slice(0, limit)
      .map(keyHashOf);
  }

  async changedSince(since: Date | null): Promise<{ keys: KeyHash[]; until: Date }> {
    const until = new Date(this.now());
    if (since === null) return { keys: [], until };
    const keys = this.records
      .filter((r) => (this.changed.get(r.id) ?? 0) > since.getTime())
      .map(keyHashOf);
    return { keys, until };
  }
}
