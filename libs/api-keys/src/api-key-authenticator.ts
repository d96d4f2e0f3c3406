import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ApiClient, ApiKeyRecord } from './api-key';
import { hashApiKey } from './api-key-secret';
import { ApiKeyStore } from './api-key-store';
import { API_KEYS_OPTIONS, ResolvedApiKeysOptions } from './api-keys.options';
import { parseBearer } from './bearer';
import { ExpiringCache } from './expiring-cache';

export type Authentication =
  { ok: true; client: ApiClient } | { ok: false; reason: 'missing' | 'malformed' | 'invalid' };

/** Anything carrying request headers: a Fastify request, a Node request, a test double. */
export interface RequestWithHeaders {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Tells who a request's API key belongs to. Look-ups are cached for a short time (so a request
 * usually costs no database round trip, and a revoked key is refused within `cacheTtlMs`), and
 * remembered per request (the rate limiter and the guard both ask, the store is asked once).
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleDestroy {
  private readonly logger = new Logger('ApiKeys');
  private readonly cache: ExpiringCache<ApiKeyRecord | null>;
  private readonly perRequest = new WeakMap<object, Promise<Authentication>>();
  private readonly usedSinceFlush = new Set<string>();
  private readonly flushTimer: NodeJS.Timeout;
  /** The clock, replaceable in tests. */
  now: () => number = Date.now;

  constructor(
    private readonly store: ApiKeyStore,
    @Inject(API_KEYS_OPTIONS) private readonly options: ResolvedApiKeysOptions,
  ) {
    this.cache = new ExpiringCache(options.maxCacheEntries);
    this.flushTimer = setInterval(() => void this.flushLastUsed(), options.lastUsedFlushMs);
    this.flushTimer.unref();
  }

  authenticate(request: RequestWithHeaders): Promise<Authentication> {
    let result = this.perRequest.get(request);
    if (!result) {
      result = this.authenticateHeader(request.headers.authorization);
      this.perRequest.set(request, result);
    }
    return result;
  }

  /** Forgets what this instance knows of a key, so that a revocation here takes effect at once. */
  forget(keyId: string): void {
    this.cache.deleteWhere((record) => record?.id === keyId);
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
    await this.flushLastUsed();
  }

  private async authenticateHeader(header: string | string[] | undefined): Promise<Authentication> {
    const bearer = parseBearer(header);
    if (bearer.kind !== 'token') return { ok: false, reason: bearer.kind };
    // A key of another environment (or no key of ours at all) is refused without a look-up.
    if (!bearer.token.startsWith(this.options.keyPrefix)) return { ok: false, reason: 'invalid' };

    // Keys are found by their hash: the secret itself is never compared, so no timing leaks it.
    const hash = hashApiKey(bearer.token);
    const record = await this.lookUp(hash);
    if (!record || record.revokedAt) return { ok: false, reason: 'invalid' };
    this.usedSinceFlush.add(record.id);
    return { ok: true, client: this.clientOf(record) };
  }

  private async lookUp(hash: string): Promise<ApiKeyRecord | null> {
    const now = this.now();
    const cached = this.cache.get(hash, now);
    if (cached !== undefined) return cached;
    const record = await this.store.findByHash(hash);
    const ttl = record ? this.options.cacheTtlMs : this.options.negativeCacheTtlMs;
    this.cache.set(hash, record, now + ttl);
    return record;
  }

  private clientOf(record: ApiKeyRecord): ApiClient {
    const limits = record.plan === 'enterprise' ? record.limits : this.options.plans[record.plan];
    if (!limits) throw new Error(`API key ${record.id} has no limits for its plan ${record.plan}.`);
    return { keyId: record.id, name: record.name, plan: record.plan, limits };
  }
}
