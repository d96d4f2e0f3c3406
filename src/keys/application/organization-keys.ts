import { Key, KeyWithSecret } from '../domain/key';

export interface KeyRequest {
  name: string;
  scopes: readonly string[];
  organizationId: number;
  /** The issuer's own plan and, for an enterprise plan, its limits. */
  plan: string;
  limits: { perMinute: number; perDay: number; openOrders: number; webhookEndpoints: number };
  expiresAt: Date | null;
}

/** When a roll applies: received at `receivedAt`, it is refused if another was applied since. */
export interface RollCondition {
  receivedAt: Date;
  /** The key's expiry from the roll on; unchanged when absent. */
  expiresAt?: Date;
}

/**
 * Port: the API keys, as an organisation manages its own. Errors of a request a key store refuses
 * (a name, an expiry, an overlap out of bounds) are thrown as they are.
 */
export abstract class OrganizationKeys {
  /** A key by id, revoked or not; null when none. */
  abstract find(id: string): Promise<Key | null>;
  /** The organisation's keys, ascending by id. */
  abstract listOf(organizationId: number): Promise<Key[]>;
  abstract issue(request: KeyRequest): Promise<KeyWithSecret>;
  /**
   * A new secret; the old one works for `overlapSeconds` more. Only if no other roll of the key
   * was applied since `receivedAt` (else KeyRollConflictError) and it is live, not revoked nor
   * expired (else a 404); from then on it expires at `expiresAt` when that is given.
   */
  abstract roll(
    id: string,
    overlapSeconds: number,
    condition: RollCondition,
  ): Promise<KeyWithSecret>;
  abstract revoke(id: string): Promise<void>;
}

/** What is left of a key's budget: each window's limit, remaining requests and end (Unix s). */
export interface Usage {
  minute: { limit: number; remaining: number; reset: number };
  day: { limit: number; remaining: number; reset: number };
}

/** Port: a key's budget as the rate limiter holds it, read without counting anything. */
export abstract class KeyUsage {
  abstract of(key: Key): Promise<Usage>;
}
