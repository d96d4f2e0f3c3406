import { ApiKeyRecord, NewApiKeyRecord } from './api-key';

/**
 * Port: where API keys are kept. The library ships a TypeORM adapter; a deployment can bind
 * its own (an identity system, say) through `ApiKeysModule.forRoot({ store })`.
 */
export abstract class ApiKeyStore {
  abstract insert(key: NewApiKeyRecord): Promise<ApiKeyRecord>;
  /** The key whose current secret, or whose secret replaced by a roll, has this hash. */
  abstract findByHash(hash: string): Promise<ApiKeyRecord | null>;
  abstract findById(id: string): Promise<ApiKeyRecord | null>;
  /** The keys of these ids that exist, in one look-up (ids that name no key are left out). */
  abstract findByIds(ids: readonly string[]): Promise<ApiKeyRecord[]>;
  /** Every key, or only those of one tenant, ascending by id. */
  abstract list(organizationId?: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when there is no such key or it was already revoked. */
  abstract revoke(id: string, at: Date): Promise<boolean>;
  /**
   * Gives the key a new secret: `hash` and `prefix` become the current ones, and the current
   * secret becomes the previous one, valid until `previousValidUntil` (which may be now: then it is
   * kept only to be told apart as replaced). Any earlier previous secret is forgotten; `rolledAt`
   * becomes `condition.at`. In one atomic step, and only if the key is neither revoked nor expired
   * at `condition.at`, and (when `condition.receivedAt` is given) was not rolled from then on; its
   * expiry becomes `condition.expiresAt` when that is given. Null when it does not apply (for
   * whichever of those reasons: the caller reads the key again to tell which).
   */
  abstract roll(
    id: string,
    secret: { hash: string; prefix: string },
    previousValidUntil: Date,
    condition: RollCondition,
  ): Promise<ApiKeyRecord | null>;
  /** Records that these keys were used at `at` (called in batches, not per request). */
  abstract recordUse(ids: string[], at: Date): Promise<void>;
  abstract count(): Promise<number>;
  /**
   * The secrets of keys not revoked whose id is greater than `afterId` (every key's when null),
   * ascending by id, at most `limit`: what every instance holds to tell keys from guesses.
   */
  abstract hashesAfter(afterId: string | null, limit: number): Promise<KeyHash[]>;
  /**
   * The keys issued, rolled or revoked since `since` (by the store's clock: `until` is the instant
   * of this answer, to pass as the next `since`), revoked ones included, so that every instance
   * learns of a change without reloading every key.
   */
  abstract changedSince(since: Date | null): Promise<{ keys: KeyHash[]; until: Date }>;
}

/** When a roll applies, and what else it changes. */
export interface RollCondition {
  /** The instant of the roll: the key must be live then (not expired). */
  at: Date;
  /**
   * When the request for the roll was received: a roll of the key applied from then on (another
   * request's, in flight together with this one) makes this one not apply. Not checked when absent.
   */
  receivedAt?: Date;
  /** The key's expiry from the roll on (null: never); unchanged when not given. */
  expiresAt?: Date | null;
}

/** What the set of known keys holds of a key: its secrets' hashes and until when each opens it. */
export type KeyHash = Pick<
  ApiKeyRecord,
  'id' | 'hash' | 'previousHash' | 'previousHashExpiresAt' | 'expiresAt' | 'revokedAt'
>;
