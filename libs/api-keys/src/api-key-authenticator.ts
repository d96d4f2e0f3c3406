import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ApiClient, ApiKeyRecord, credentialState, secretsOf } from './api-key';
import { hashApiKey } from './api-key-secret';
import { ApiKeyStore, KeyHash } from './api-key-store';
import { KeyChange, KeyChangeBroadcast } from './key-change-broadcast';
import { API_KEYS_OPTIONS, ResolvedApiKeysOptions } from './api-keys.options';
import { parseBearer } from './bearer';
import { ExpiringCache } from './expiring-cache';
import { KnownKeyHashes } from './known-key-hashes';
import { enterpriseLimits } from './plans';

/**
 * Why a request is not authenticated: no or a malformed Authorization header, a key that opens
 * nothing (unknown, revoked), a key past its `expiresAt`, or a secret a roll replaced whose overlap
 * has ended.
 */
export type RefusalReason = 'missing' | 'malformed' | 'invalid' | 'expired' | 'replaced';

export type Authentication = { ok: true; client: ApiClient } | { ok: false; reason: RefusalReason };

/** Anything carrying request headers: a Fastify request, a Node request, a test double. */
export interface RequestWithHeaders {
  headers: Record<string, string | string[] | undefined>;
}

/** What a request's Authorization header holds: a refusal known at once, or a key's hash. */
type Credential = { kind: 'refused'; reason: RefusalReason } | { kind: 'key'; hash: string };

/** How far back each look at changed keys reaches before the last one's instant. */
const CHANGES_LOOK_BACK_MS = 5_000;

/** Most keys renewed at once (keepWarmMs): past that, the others look themselves up as before. */
const MAX_KEPT_WARM = 2_000;

/** A key the store has answered for: trusted until `freshUntil`, then looked up again. */
interface KnownKey {
  record: ApiKeyRecord;
  freshUntil: number;
  /** When a request last used it: renewed before its trust lapses while this is recent. */
  usedAt: number;
}

/**
 * Tells who a request's API key belongs to.
 *
 * - A look-up is trusted for `cacheTtlMs`, so a request usually costs no database round trip and a
 *   revoked key is refused everywhere within that time; every change of a key (issued, rolled,
 *   revoked) is also broadcast (KeyChangeBroadcast), and each instance then forgets what it trusted
 *   of the key and learns its secrets at once. A key's expiry, and the end of a roll's overlap,
 *   are instants in its record: every instance refuses it from that instant on, without a look-up. Keys the store knows and keys it does not
 *   are remembered apart, each bounded: a flood of made-up keys only evicts made-up keys.
 * - A key once found stays known after its trust expires, so checking it again is not guessing:
 *   `isUnverified` is true only for a key this instance has never found (and does not remember as
 *   unknown), which a caller can make pay before the look-up (the rate limiter charges the client
 *   address).
 * - Every key that exists is known by a 64-bit prefix of its hash (KnownKeyHashes, loaded at start
 *   and refreshed every `knownKeysRefreshMs`): such a key is no guess even on an instance that has
 *   never seen it, so it never pays for its address's traffic (docs/adr/0023).
 * - Concurrent look-ups of one key share one query; answers are remembered per request (the rate
 *   limiter and the guard both ask, the store is asked once).
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ApiKeys');
  private readonly known: ExpiringCache<KnownKey>;
  private readonly unknown: ExpiringCache<true>;
  private readonly inFlight = new Map<string, Promise<ApiKeyRecord | null>>();
  /** Bumped by every revocation: a look-up that started before it must not be remembered. */
  private generation = 0;
  private readonly credentials = new WeakMap<object, Credential>();
  private readonly perRequest = new WeakMap<object, Promise<Authentication>>();
  private readonly usedSinceFlush = new Set<string>();
  private readonly flushTimer: NodeJS.Timeout;
  private readonly existing = new KnownKeyHashes();
  /** Who waits to hear of a key (`becomesKnown`): asked again whenever the known keys change. */
  private readonly listening = new Set<() => void>();
  /** The store's instant of the last look at changed keys: the next asks for changes since. */
  private changesSeen: Date | null = null;
  private refreshTimer?: NodeJS.Timeout;
  private reloadTimer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private renewTimer?: NodeJS.Timeout;
  private renewing?: Promise<void>;
  /** The keys forgotten while a renewal is under way: its answers for them are stale. */
  private forgottenWhileRenewing?: Set<string>;
  /** The library's clock (keys' expiry, rolls' overlaps), replaceable in tests. */
  now: () => number = Date.now;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly changes: KeyChangeBroadcast,
    @Inject(API_KEYS_OPTIONS) private readonly options: ResolvedApiKeysOptions,
  ) {
    this.known = new ExpiringCache(options.maxCacheEntries);
    this.unknown = new ExpiringCache(options.maxCacheEntries);
    this.flushTimer = setInterval(() => void this.flushLastUsed(), options.lastUsedFlushMs);
    this.flushTimer.unref();
  }

  authenticate(request: RequestWithHeaders): Promise<Authentication> {
    let result = this.perRequest.get(request);
    if (!result) {
      result = this.authenticateCredential(this.credentialOf(request));
      this.perRequest.set(request, result);
    }
    return result;
  }

  /**
   * The answer for this request when it needs no look-up: a header refused as it is, a key whose
   * record is trusted still, or a key remembered as unknown. Undefined when only `authenticate`
   * can tell, after a look-up. Lets a caller stay synchronous on the usual path.
   */
  authenticateNow(request: RequestWithHeaders): Authentication | undefined {
    const credential = this.credentialOf(request);
    if (credential.kind === 'refused') return { ok: false, reason: credential.reason };
    const now = this.now();
    const remembered = this.remembered(credential.hash, now);
    return remembered === undefined ? undefined : this.answer(credential.hash, remembered, now);
  }

  /**
   * Whether answering for this request needs a look-up of a key this instance has never found:
   * a guess, as far as it can tell. Everything else is answered from memory, or is a key it has
   * seen before.
   */
  isUnverified(request: RequestWithHeaders): boolean {
    const credential = this.credentialOf(request);
    if (credential.kind === 'refused') return false;
    const now = this.now();
    return (
      this.known.get(credential.hash, now) === undefined &&
      this.unknown.get(credential.hash, now) === undefined &&
      !this.existing.has(credential.hash, now)
    );
  }

  /**
   * Whether the request's key, a guess as far as this instance could tell (`isUnverified`),
   * becomes known within `withinMs`: a key issued or rolled on another instance a moment ago,
   * whose broadcast is still on its way. Asked only before refusing such a key for its address's
   * traffic, so a valid new key is never refused for it (CONTRACT: known everywhere within
   * 100 ms); a guess waits that long and is refused as before, having cost no look-up.
   */
  becomesKnown(request: RequestWithHeaders, withinMs: number): Promise<boolean> {
    const credential = this.credentialOf(request);
    if (credential.kind === 'refused') return Promise.resolve(false);
    const known = () => this.existing.has(credential.hash, this.now());
    if (known()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const answer = (isKnown: boolean) => {
        clearTimeout(timer);
        this.listening.delete(hear);
        resolve(isKnown);
      };
      const hear = () => {
        if (known()) answer(true);
      };
      const timer = setTimeout(() => answer(known()), withinMs);
      this.listening.add(hear);
    });
  }

  /** The known keys changed: whoever waits for a key asks again. */
  private heard(): void {
    for (const hear of [...this.listening]) hear();
  }

  /**
   * Loads the keys that exist, then keeps learning of changed ones (and reloads them all now and
   * then), and hears of every change at once through the broadcast.
   */
  async onModuleInit(): Promise<void> {
    const { knownKeysRefreshMs, knownKeysReloadMs, keepWarmMs, cacheTtlMs } = this.options;
    this.changes.subscribe((change) => this.changed(change));
    if (keepWarmMs > 0 && cacheTtlMs > 0) {
      this.renewTimer = setInterval(() => void this.renewTrust(), cacheTtlMs / 2).unref();
    }
    if (knownKeysRefreshMs <= 0) return;
    await this.refreshKnownKeys(true);
    this.refreshTimer = setInterval(
      () => void this.refreshKnownKeys(false),
      knownKeysRefreshMs,
    ).unref();
    this.reloadTimer = setInterval(
      () => void this.refreshKnownKeys(true),
      knownKeysReloadMs,
    ).unref();
  }

  /**
   * Renews, in one look-up, the trust in every key used within `keepWarmMs` whose trust lapses
   * before the next renewal (half a trust period away): such a key's requests never wait for a
   * look-up of their own. A renewed record is trusted for `cacheTtlMs` from when it was asked for,
   * as a request's look-up is, so a revocation is refused as soon as before.
   */
  renewTrust(): Promise<void> {
    this.renewing ??= this.renewDueKeys()
      .catch((error: Error) =>
        this.logger.warn(`Could not renew the trust in API keys: ${error.message}`),
      )
      .finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  private async renewDueKeys(): Promise<void> {
    const { keepWarmMs, cacheTtlMs } = this.options;
    const askedAt = this.now();
    const due = new Map<string, string[]>();
    for (const [hash, known] of this.known.live(askedAt)) {
      if (askedAt - known.usedAt > keepWarmMs || known.freshUntil > askedAt + cacheTtlMs / 2) {
        continue;
      }
      const hashes = due.get(known.record.id);
      if (hashes) hashes.push(hash);
      else if (due.size < MAX_KEPT_WARM) due.set(known.record.id, [hash]);
    }
    if (due.size === 0) return;
    const forgotten = (this.forgottenWhileRenewing = new Set());
    let records: ApiKeyRecord[];
    try {
      records = await this.store.findByIds([...due.keys()]);
    } finally {
      this.forgottenWhileRenewing = undefined;
    }
    const found = new Map(records.map((record) => [record.id, record]));
    for (const [id, hashes] of due) {
      // Forgotten meanwhile (revoked, rolled): what was read may be from before; looked up afresh.
      if (forgotten.has(id)) continue;
      const record = found.get(id);
      for (const hash of hashes) {
        const known = this.known.get(hash, askedAt);
        if (!known || known.record.id !== id) continue;
        if (!record) this.known.delete(hash);
        else this.known.set(hash, { ...known, record, freshUntil: askedAt + cacheTtlMs }, Infinity);
      }
    }
  }

  /**
   * Learns the keys issued, rolled or revoked since the last look (on `reload`, all of them afresh).
   */
  refreshKnownKeys(reload: boolean): Promise<void> {
    this.refreshing ??= this.loadKnownKeys(reload)
      .catch((error: Error) =>
        this.logger.warn(`Could not load the known API keys: ${error.message}`),
      )
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async loadKnownKeys(reload: boolean): Promise<void> {
    if (!reload) {
      // Changes committed a little late (a transaction that began before the last look) are
      // caught by looking back a few seconds each time: learning a change twice changes nothing.
      const since = this.changesSeen && new Date(this.changesSeen.getTime() - CHANGES_LOOK_BACK_MS);
      const { keys, until } = await this.store.changedSince(since);
      for (const key of keys) this.learn(key);
      this.heard();
      this.changesSeen = until;
      return;
    }
    this.existing.startLoad();
    try {
      const { until } = await this.store.changedSince(null);
      this.existing.replace(await this.allSecrets());
      this.heard();
      this.changesSeen ??= until;
    } catch (error) {
      this.existing.abandonLoad();
      throw error;
    }
  }

  /** The secrets of every key in the store, read a page at a time. */
  private async allSecrets(): Promise<{ hash: string; until: number }[]> {
    const page = 10_000;
    let after: string | null = null;
    const secrets: { hash: string; until: number }[] = [];
    for (;;) {
      const batch = await this.store.hashesAfter(after, page);
      for (const key of batch) secrets.push(...secretsOf(key));
      if (batch.length > 0) after = batch[batch.length - 1].id;
      if (batch.length < page) return secrets;
    }
  }

  /** What the set of known keys holds of a key as it now is (revoked: nothing). */
  private learn(key: KeyHash): void {
    for (const hash of [key.hash, key.previousHash]) if (hash) this.existing.remove(hash);
    for (const secret of secretsOf(key)) this.existing.add(secret.hash, secret.until);
    this.forget(key.id);
  }

  /**
   * A key changed, here or on another instance: stop trusting what was remembered of it, and know
   * its secrets as they now are, at once (no look-up: the change says them).
   */
  private changed({ keyId, secrets, ended }: KeyChange): void {
    this.forget(keyId);
    for (const hash of ended) this.existing.remove(hash);
    for (const { hash, until } of secrets) this.existing.add(hash, until);
    this.heard();
  }

  /** Remembers a key this instance has just issued or rolled, so its first use costs no look-up. */
  remember(record: ApiKeyRecord): void {
    this.forget(record.id);
    const now = this.now();
    for (const { hash, until } of secretsOf(record)) {
      this.rememberAnswer(hash, record, now);
      this.existing.add(hash, until);
    }
    this.heard();
  }

  /**
   * Forgets what this instance knows of a key, so that a revocation here takes effect at once,
   * including over a look-up that was in flight when it happened.
   */
  forget(keyId: string): void {
    this.generation++;
    this.forgottenWhileRenewing?.add(keyId);
    this.inFlight.clear();
    this.known.deleteWhere((known) => known.record.id === keyId);
  }

  async flushLastUsed(): Promise<void> {
    if (this.usedSinceFlush.size === 0) return;
    const ids = [...this.usedSinceFlush];
    this.usedSinceFlush.clear();
    try {
      await this.store.recordUse(ids, new Date(this.now()));
      this.logger.debug(`Recorded the last use of ${ids.length} key(s).`);
    } catch (error) {
      // Last use is informative only: losing one batch never fails a request.
      this.logger.warn(
        `Could not record the last use of ${ids.length} key(s): ${(error as Error).message}`,
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.refreshTimer);
    clearInterval(this.reloadTimer);
    clearInterval(this.renewTimer);
    await this.refreshing;
    await this.renewing;
    await this.flushLastUsed();
  }

  private credentialOf(request: RequestWithHeaders): Credential {
    let credential = this.credentials.get(request);
    if (!credential) {
      const bearer = parseBearer(request.headers.authorization);
      credential =
        bearer.kind !== 'token'
          ? { kind: 'refused', reason: bearer.kind }
          : // A key of another environment (or no key of ours at all) is refused without a look-up.
            !bearer.token.startsWith(this.options.keyPrefix)
            ? { kind: 'refused', reason: 'invalid' }
            : // Keys are found by their hash: the secret is never compared, so no timing leaks it.
              { kind: 'key', hash: hashApiKey(bearer.token) };
      this.credentials.set(request, credential);
    }
    return credential;
  }

  private async authenticateCredential(credential: Credential): Promise<Authentication> {
    if (credential.kind === 'refused') return { ok: false, reason: credential.reason };
    const record = await this.lookUp(credential.hash);
    return this.answer(credential.hash, record, this.now());
  }

  private answer(hash: string, record: ApiKeyRecord | null, now: number): Authentication {
    const state = record ? credentialState(record, hash, now) : 'unknown';
    if (state !== 'valid') {
      const reason = state === 'expired' || state === 'replaced' ? state : 'invalid';
      return { ok: false, reason };
    }
    this.usedSinceFlush.add(record!.id);
    return { ok: true, client: this.clientOf(record!) };
  }

  /** What this instance may answer for a key without asking the store; undefined: it must ask. */
  private remembered(hash: string, now: number): ApiKeyRecord | null | undefined {
    const known = this.known.get(hash, now);
    if (known && known.freshUntil > now) {
      known.usedAt = now;
      return known.record;
    }
    if (!known && this.unknown.get(hash, now)) return null;
    return undefined;
  }

  private lookUp(hash: string): Promise<ApiKeyRecord | null> | ApiKeyRecord | null {
    const remembered = this.remembered(hash, this.now());
    if (remembered !== undefined) return remembered;

    let pending = this.inFlight.get(hash);
    if (!pending) {
      const generation = this.generation;
      pending = this.store.findByHash(hash).then(
        (record) => {
          if (this.inFlight.get(hash) === pending) this.inFlight.delete(hash);
          if (generation === this.generation) this.rememberAnswer(hash, record, this.now());
          return record;
        },
        (error: unknown) => {
          if (this.inFlight.get(hash) === pending) this.inFlight.delete(hash);
          throw error;
        },
      );
      this.inFlight.set(hash, pending);
    }
    return pending;
  }

  private rememberAnswer(hash: string, record: ApiKeyRecord | null, now: number): void {
    if (record) {
      this.unknown.delete(hash);
      // Known keys stay until evicted; only their trust expires.
      this.known.set(
        hash,
        { record, freshUntil: now + this.options.cacheTtlMs, usedAt: now },
        Infinity,
      );
    } else {
      this.known.delete(hash);
      this.unknown.set(hash, true, now + this.options.negativeCacheTtlMs);
    }
  }

  private clientOf(record: ApiKeyRecord): ApiClient {
    const limits =
      record.plan === 'enterprise'
        ? record.limits && enterpriseLimits(record.limits)
        : this.options.plans[record.plan];
    if (!limits) throw new Error(`API key ${record.id} has no limits for its plan ${record.plan}.`);
    return {
      keyId: record.id,
      name: record.name,
      plan: record.plan,
      limits,
      scopes: record.scopes,
      organizationId: record.organizationId,
      expiresAt: record.expiresAt,
    };
  }
}
