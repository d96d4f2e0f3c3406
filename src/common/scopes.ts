import { DomainError } from './domain-error';

/**
 * What an API key may do. Each operation names the scope it needs (route metadata); a key carries
 * a set of them. Plain data: the guard, the admin API, the CLI and the migration all read it.
 */
export const SCOPES = [
  'pets:read',
  'pets:write',
  'orders:read',
  'orders:write',
  'orders:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * A key issued without scopes, and every key that existed before scopes, gets these: all of v1's
 * access and its own orders. `orders:manage` (everyone's orders) is given only when asked for.
 */
export const DEFAULT_SCOPES: readonly Scope[] = [
  'pets:read',
  'pets:write',
  'orders:read',
  'orders:write',
];

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
