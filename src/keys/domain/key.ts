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

/**
 * The expiry of a key that `issuer` issues: no later than the issuer's own (a key that expires
 * makes none that outlives it). Not named (null): the issuer's own, which is null (never) only
 * for an issuer that never expires. Named later than the issuer's: refused, rather than cut
 * short behind the client's back.
 */
export function issuedExpiry(issuer: Pick<Key, 'expiresAt'>, requested: Date | null): Date | null {
  if (requested === null) return issuer.expiresAt;
  if (issuer.expiresAt !== null && requested.getTime() > issuer.expiresAt.getTime()) {
    throw new ExpiryBeyondIssuerError(issuer.expiresAt);
  }
  return requested;
}

/**
 * The expiry a key takes when `caller` rolls it: its own, or the caller's if that comes first, so
 * that a key that expires cannot roll a longer-lived one into a secret that outlives the caller.
 * Undefined when the key's own stands.
 */
export function rolledExpiry(
  caller: Pick<Key, 'expiresAt'>,
  key: Pick<Key, 'expiresAt'>,
): Date | undefined {
  if (caller.expiresAt === null) return undefined;
  if (key.expiresAt !== null && key.expiresAt.getTime() <= caller.expiresAt.getTime()) {
    return undefined;
  }
  return caller.expiresAt;
}

/** A key named an expiry later than its own for a key it issues. */
export class ExpiryBeyondIssuerError extends DomainError {
  readonly code = 'validation_failed';

  constructor(issuerExpiresAt: Date) {
    super(
      `expiresAt must be no later than the calling key's own expiry, ${issuerExpiresAt.toISOString()}: a key issues no key that outlives it. Leave expiresAt out to take that instant.`,
    );
  }
}

/** The caller would roll or revoke a key holding scopes it lacks itself. */
export class KeyOutranksCallerError extends DomainError {
  readonly code = 'forbidden';

  constructor(id: string, scopes: readonly string[]) {
    super(
      `The key ${id} holds scopes this key lacks (${scopes.join(', ')}): a key rolls or revokes only keys whose scopes are within its own. Use a key that holds them.`,
    );
  }
}

/** Another roll of the key came first, after it was read for this one: nothing was changed. */
export class KeyRollConflictError extends DomainError {
  readonly code = 'conflict';

  /** `id` as the client wrote it. */
  constructor(id: string) {
    super(
      `The API key ${id} was rolled by another request at the same moment, which came first: its secret is the one that roll answered, and this roll changed nothing.`,
    );
  }
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
