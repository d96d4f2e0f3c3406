import { DomainError } from '../../common/domain-error';

/** A key as its organisation's staff see it: never its secret, nor the secret's hash. */
export interface Key {
  /** Ids as the key library keeps them: decimal text. */
  readonly id: string;
  readonly name: string;
  readonly plan: string;
  readonly limits: {
    readonly perMinute: number;
    readonly perDay: number;
    readonly openOrders: number;
    readonly webhookEndpoints: number;
  };
  readonly scopes: readonly string[];
  readonly organizationId: number | null;
  readonly prefix: string;
  readonly expiresAt: Date | null;
  /** Until when the secret the last roll replaced still works; null when none does. */
  readonly previousSecretValidUntil: Date | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
}

/** A key issued or rolled: the key, and its secret, shown this once. */
export interface KeyWithSecret {
  readonly key: Key;
  readonly secret: string;
}

/** A key as recorded in JSON (an idempotent creation's answer): its instants as dates again. */
export function revivedKey(key: Key): Key {
  const instant = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    ...key,
    expiresAt: instant(key.expiresAt),
    previousSecretValidUntil: instant(key.previousSecretValidUntil),
    createdAt: new Date(key.createdAt),
    revokedAt: instant(key.revokedAt),
    lastUsedAt: instant(key.lastUsedAt),
  };
}

/** The longest overlap of a roll: a week, in which clients move to the new secret. */
export const MAX_ROLL_OVERLAP_SECONDS = 604_800;

/**
 * A key may hand on only what it holds: the scopes a key issues are a subset of its own (no key
 * mints a more powerful one). The scopes missing from the issuer's, if any.
 */
export function scopesBeyond(requested: readonly string[], held: readonly string[]): string[] {
  return requested.filter((scope) => !held.includes(scope));
}

/** The caller asked for scopes it does not hold itself. */
export class ScopesBeyondIssuerError extends DomainError {
  readonly code = 'forbidden';

  constructor(scopes: readonly string[]) {
    super(
      `A key can issue only scopes it holds itself; this one lacks ${scopes.join(', ')}. Ask the operator for a key that holds them.`,
    );
  }
}

/** A key operation asked of a key that belongs to no organisation. */
export class NoOrganizationError extends DomainError {
  readonly code = 'forbidden';

  constructor() {
    super(
      'This API key belongs to no organisation, so it has no keys to manage: organisation keys are for the staff of an organisation.',
    );
  }
}

export class KeyNotFoundError extends DomainError {
  readonly code = 'not_found';

  /** `id` as the client wrote it. */
  constructor(id: string) {
    super(`No active API key with id ${id} in this organisation.`);
  }
}
