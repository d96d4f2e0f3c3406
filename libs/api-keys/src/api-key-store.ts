import { ApiKeyRecord, NewApiKeyRecord } from './api-key';

/**
 * Port: where API keys are kept. The library ships a TypeORM adapter; a deployment can bind
 * its own (an identity system, say) through `ApiKeysModule.forRoot({ store })`.
 */
export abstract class ApiKeyStore {
  abstract insert(key: NewApiKeyRecord): Promise<ApiKeyRecord>;
  abstract findByHash(hash: string): Promise<ApiKeyRecord | null>;
  abstract list(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when there is no such key or it was already revoked. */
  abstract revoke(id: string, at: Date): Promise<boolean>;
  /** Records that these keys were used at `at` (called in batches, not per request). */
  abstract recordUse(ids: string[], at: Date): Promise<void>;
  abstract count(): Promise<number>;
  /**
   * The ids and hashes of keys not revoked whose id is greater than `afterId` (every key's when
   * null), ascending by id, at most `limit`: what every instance holds to tell keys from guesses.
   */
  abstract hashesAfter(afterId: string | null, limit: number): Promise<KeyHash[]>;
}

export interface KeyHash {
  id: string;
  hash: string;
}
