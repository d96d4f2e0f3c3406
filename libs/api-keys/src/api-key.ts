import { KeyLimits, Plan, RateLimits } from './plans';

/** An API key as stored: never the key itself, only its SHA-256 hash and a short visible prefix. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  plan: Plan;
  /** Own limits of an enterprise key; null for the other plans, which take the plan table's. */
  limits: RateLimits | null;
  /** What the key may do, in the application's terms (`orders:read`, ...). */
  scopes: string[];
  /**
   * The tenant the key belongs to, in the application's terms (an organisation's id), or null: the
   * library stores it and attaches it to the client; what it allows is the application's to say.
   */
  organizationId: string | null;
  /** The first characters of the key, enough to recognise it in a listing. */
  prefix: string;
  hash: string;
  /**
   * The secret a roll replaced (its hash), still accepted until `previousHashExpiresAt`: the overlap
   * in which clients move to the new secret. Null when there is none.
   */
  previousHash: string | null;
  previousHashExpiresAt: Date | null;
  /** From this instant the key is refused; null: it never expires. */
  expiresAt: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /**
   * When the key was last rolled (null: never): a roll is refused if another was applied after
   * its own request was received, so that of rolls in flight together one wins and none hands
   * out a secret already replaced.
   */
  rolledAt: Date | null;
}

export type NewApiKeyRecord = Pick<
  ApiKeyRecord,
  'name' | 'plan' | 'limits' | 'scopes' | 'organizationId' | 'expiresAt' | 'prefix' | 'hash'
>;

/** The client a valid key identifies, as handlers and the rate limiter see it. */
export interface ApiClient {
  keyId: string;
  name: string;
  plan: Plan;
  limits: KeyLimits;
  scopes: readonly string[];
  /** The tenant the key belongs to, or null. */
  organizationId: string | null;
  expiresAt: Date | null;
}

/**
 * Whether `hash` opens `record` at `now`: the key's current secret until the key expires, the
 * secret a roll replaced until its overlap ends too; a revoked key never. Why not, otherwise.
 */
export function credentialState(
  record: ApiKeyRecord,
  hash: string,
  now: number,
): 'valid' | 'revoked' | 'expired' | 'replaced' | 'unknown' {
  if (record.revokedAt) return 'revoked';
  if (record.expiresAt && record.expiresAt.getTime() <= now) return 'expired';
  if (hash === record.hash) return 'valid';
  if (hash !== record.previousHash) return 'unknown';
  const until = record.previousHashExpiresAt?.getTime() ?? 0;
  return until > now ? 'valid' : 'replaced';
}

/** Until when a secret of the key is accepted, or Infinity: what every instance's set of known keys keeps. */
export function secretsOf(
  record: Pick<
    ApiKeyRecord,
    'hash' | 'previousHash' | 'previousHashExpiresAt' | 'expiresAt' | 'revokedAt'
  >,
): { hash: string; until: number }[] {
  if (record.revokedAt) return [];
  const keyEnds = record.expiresAt?.getTime() ?? Infinity;
  const secrets = [{ hash: record.hash, until: keyEnds }];
  if (record.previousHash && record.previousHashExpiresAt) {
    secrets.push({
      hash: record.previousHash,
      until: Math.min(keyEnds, record.previousHashExpiresAt.getTime()),
    });
  }
  return secrets;
}
