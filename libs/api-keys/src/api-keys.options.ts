import { DEFAULT_PLAN_TABLE, PlanTable } from './plans';

export interface ApiKeysOptions {
  /** Prefix of issued keys, telling live from test keys: `pet_live_` or `pet_test_`. */
  keyPrefix: string;
  /** Limits of the free, pro and business plans; the specification's by default. */
  plans?: PlanTable;
  /** How long a look-up is trusted: a revoked key is refused everywhere within this time. */
  cacheTtlMs?: number;
  /**
   * How long after its last use a key's look-up is renewed before its trust lapses: every half
   * `cacheTtlMs`, one query renews every such key whose trust would lapse by the next, so that a
   * key used every few seconds (an integration's, an adopter's) costs its requests no look-up.
   * Each renewal is trusted for `cacheTtlMs` from when it was asked for, as a request's look-up
   * is. 0: never renewed.
   */
  keepWarmMs?: number;
  /** How long an unknown key is remembered as unknown. */
  negativeCacheTtlMs?: number;
  /** Most keys remembered at once, so that random keys cannot grow the cache without bound. */
  maxCacheEntries?: number;
  /** How often the last use of keys is written, in one statement for all keys used meanwhile. */
  lastUsedFlushMs?: number;
  /**
   * How often each instance learns the keys issued, rolled or revoked since it last looked (by any
   * instance), so that it tells them from guesses without the database (docs/adr/0023) even when a
   * broadcast was missed. 0: never (tests).
   */
  knownKeysRefreshMs?: number;
  /** How often the set of known keys is loaded whole again. */
  knownKeysReloadMs?: number;
  /**
   * The scopes a key may carry, and those a key issued without any gets; none by default. The
   * table's migration (ApiKeyScopesMigration) gives existing keys the same defaults.
   */
  scopes?: { known: readonly string[]; defaults: readonly string[] };
  /** The longest a key may be issued for (`expiresAt` at most this far ahead). */
  maxLifetimeMs?: number;
  /** The longest overlap of a roll, in which the replaced secret still works. */
  maxRollOverlapSeconds?: number;
}

export const API_KEYS_OPTIONS = Symbol('API_KEYS_OPTIONS');

export type ResolvedApiKeysOptions = Required<ApiKeysOptions>;

/** Two years, leap day included. */
const TWO_YEARS_MS = 731 * 86_400_000;
/** A week. */
const ONE_WEEK_SECONDS = 604_800;

export function resolveOptions(options: ApiKeysOptions): ResolvedApiKeysOptions {
  return {
    plans: options.plans ?? DEFAULT_PLAN_TABLE,
    cacheTtlMs: options.cacheTtlMs ?? 1_000,
    keepWarmMs: options.keepWarmMs ?? 10_000,
    negativeCacheTtlMs: options.negativeCacheTtlMs ?? 1_000,
    maxCacheEntries: options.maxCacheEntries ?? 10_000,
    lastUsedFlushMs: options.lastUsedFlushMs ?? 10_000,
    knownKeysRefreshMs: options.knownKeysRefreshMs ?? 2_000,
    knownKeysReloadMs: options.knownKeysReloadMs ?? 10 * 60_000,
    keyPrefix: options.keyPrefix,
    scopes: options.scopes ?? { known: [], defaults: [] },
    maxLifetimeMs: options.maxLifetimeMs ?? TWO_YEARS_MS,
    maxRollOverlapSeconds: options.maxRollOverlapSeconds ?? ONE_WEEK_SECONDS,
  };
}
