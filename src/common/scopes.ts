import { DomainError } from './domain-error';

/**
 * What an API key may do, one line per scope: adding a scope is adding a line here. Each operation
 * names the scope it needs (route metadata); a key carries a set of them. `default`: whether a key
 * issued without scopes gets it (existing keys gain a new default scope only through a migration:
 * GrantScopeToExistingKeys). Plain data: the guard, the admin API, the CLI and the migration all
 * read it.
 */
const SCOPE_TABLE = {
  'pets:read': { default: true },
  'pets:write': { default: true },
  'orders:read': { default: true },
  'orders:write': { default: true },
  // The orders for the pets of the key's own organisation: given only when asked for.
  'orders:manage': { default: false },
  // Correcting, holding and removing the pets of the key's own organisation (its staff's).
  'pets:manage': { default: false },
  // The key's own organisation: its profile, and the keys of its staff.
  'organization:manage': { default: false },
  // The key's own webhook endpoints: given only when asked for (and to the first-run key).
  'webhooks:manage': { default: false },
  // Applying for animals: submit, read, withdraw and erase the key's own applications. Given to
  // keys issued from v1.4 without scopes; keys issued before keep theirs (CONTRACT.md v1.4).
  'applications:write': { default: true },
  // Reviewing and deciding the applications for the pets of the key's own organisation (staff).
  'applications:manage': { default: false },
} as const satisfies Record<string, { default: boolean }>;

export type Scope = keyof typeof SCOPE_TABLE;

export const SCOPES = Object.keys(SCOPE_TABLE) as readonly Scope[];

/** What a key issued without scopes gets, and every key that existed before scopes. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter(
  (scope) => SCOPE_TABLE[scope].default,
);

export function isScope(value: unknown): value is Scope {
  return (SCOPES as readonly unknown[]).includes(value);
}

/**
 * Whether a key holding `held` may do what any one of `allowing` allows; if not, the error naming
 * the scope to ask for (the first: the narrowest).
 */
export function checkScope(allowing: readonly Scope[], held: readonly string[]): void {
  if (!allowing.some((scope) => held.includes(scope))) {
    throw new InsufficientScopeError(allowing[0]);
  }
}

/**
 * The caller's key lacks the scope an operation (or the change it asks for) needs. Raised before
 * anything is looked up, so that it reveals nothing about what exists.
 */
export class InsufficientScopeError extends DomainError {
  readonly code = 'forbidden';

  constructor(readonly scope: Scope) {
    super(`This API key lacks the scope ${scope}, which this operation needs.`);
  }
}
