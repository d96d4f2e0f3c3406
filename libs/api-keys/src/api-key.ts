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
  /** The first characters of the key, enough to recognise it in a listing. */
  prefix: string;
  hash: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export type NewApiKeyRecord = Pick<
  ApiKeyRecord,
  'name' | 'plan' | 'limits' | 'scopes' | 'prefix' | 'hash'
>;

/** The client a valid key identifies, as handlers and the rate limiter see it. */
export interface ApiClient {
  keyId: string;
  name: string;
  plan: Plan;
  limits: KeyLimits;
  scopes: readonly string[];
}
