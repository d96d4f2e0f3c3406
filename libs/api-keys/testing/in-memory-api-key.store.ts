import { ApiKeyRecord, NewApiKeyRecord } from '../src/api-key';
import { ApiKeyStore, KeyHash } from '../src/api-key-store';

/** An ApiKeyStore in memory, for tests. Counts look-ups so tests can see the cache at work. */
export class InMemoryApiKeyStore extends ApiKeyStore {
  readonly records: ApiKeyRecord[] = [];
  lookUps = 0;

  async insert(key: NewApiKeyRecord): Promise<ApiKeyRecord> {
    const record = {
      ...key,
      id: String(this.records.length + 1),
      createdAt: new Date(),
      revokedAt: null,
      lastUsedAt: null,
    };
    this.records.push(record);
    return { ...record };
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    this.lookUps++;
    const record = this.records.find((r) => r.hash === hash);
    return record ? { ...record } : null;
  }

  async list(): Promise<ApiKeyRecord[]> {
    return this.records.map((r) => ({ ...r }));
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const record = this.records.find((r) => r.id === id && !r.revokedAt);
    if (record) record.revokedAt = at;
    return record !== undefined;
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
      .map(({ id, hash }) => ({ id, hash }));
  }
}
