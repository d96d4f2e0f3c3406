import { Inject, Injectable } from '@nestjs/common';
import { ApiKeyRecord, secretsOf } from './api-key';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { generateApiKey } from './api-key-secret';
import { ApiKeyStore } from './api-key-store';
import { ApiKeyRequestError } from './api-key.errors';
import { API_KEYS_OPTIONS, ResolvedApiKeysOptions } from './api-keys.options';
import { KeyChangeBroadcast, secretPrefix } from './key-change-broadcast';
import { enterpriseLimits, isPlan, KeyLimits, Plan, PLANS, RateLimits } from './plans';

export interface IssueApiKey {
  name: string;
  plan: Plan;
  limits?: RateLimits;
  /** What the key may do; the configured defaults when not given. */
  scopes?: readonly string[];
  /** The tenant the key belongs to; none when not given. */
  organizationId?: string | null;
  /** From this instant the key is refused; it never expires when not given. */
  expiresAt?: Date | null;
}

/** An API key as shown to an administrator: never the hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  plan: Plan;
  limits: KeyLimits;
  scopes: string[];
  organizationId: string | null;
  prefix: string;
  expiresAt: Date | null;
  /** Until when the secret a roll replaced still works; null when no overlap is under way. */
  previousSecretValidUntil: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A key's name is text a person reads in a listing: 1 to 100 characters counted as code points,
 * not only white space, and storable (no NUL, no lone surrogate). Null when acceptable.
 */
function keyNameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return 'must be a string';
  const length = [...name].length;
  if (length < 1 || length > 100) return 'must be 1 to 100 characters long';
  if (name.trim() === '') return 'must not be only white space';
  if (name.includes('\u0000') || LONE_SURROGATE.test(name)) {
    return 'must not contain the NUL character or a lone surrogate';
  }
  return null;
}

/**
 * The administration of keys: issue and roll (the only times a secret is seen), list, and revoke.
 * Every change is known at once on this instance and broadcast to the others.
 */
@Injectable()
export class ApiKeys {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly changes: KeyChangeBroadcast,
    @Inject(API_KEYS_OPTIONS) private readonly options: ResolvedApiKeysOptions,
  ) {}

  async issue(request: IssueApiKey): Promise<{ apiKey: ApiKeyView; key: string }> {
    this.check(request);
    const { key, prefix, hash } = generateApiKey(this.options.keyPrefix);
    const record = await this.store.insert({
      name: request.name,
      plan: request.plan,
      limits: request.plan === 'enterprise' ? request.limits! : null,
      scopes: [...(request.scopes ?? this.options.scopes.defaults)],
      organizationId: request.organizationId ?? null,
      expiresAt: request.expiresAt ?? null,
      prefix,
      hash,
    });
    this.authenticator.remember(record);
    await this.announce(record);
    return { apiKey: this.view(record), key };
  }

  /** Every key, or only those of one tenant, ascending by id; never a secret or its hash. */
  async list(organizationId?: string): Promise<ApiKeyView[]> {
    return (await this.store.list(organizationId)).map((record) => this.view(record));
  }

  /** The key with this id, revoked or not; null when there is none. */
  async get(id: string): Promise<ApiKeyView | null> {
    const record = await this.store.findById(id);
    return record && this.view(record);
  }

  /**
   * A new secret for the key, shown this once; the secret it replaces keeps working for
   * `overlapSeconds` (0: not at all), so that clients can move to the new one without a refusal.
   * A second roll within an overlap ends the first's at once: two secrets at most open a key.
   * A revoked or expired key is not found. With `receivedAt` (when the request for it was
   * received), a roll is refused (`conflict`) if another roll of the key was applied from then
   * on: of rolls in flight together one wins, and nobody is handed a secret that the winner's
   * roll has already replaced. With `expiresAt`, the key expires then from the roll on (the
   * caller says whether it may).
   */
  async roll(
    id: string,
    overlapSeconds: number,
    options: { receivedAt?: Date; expiresAt?: Date | null } = {},
  ): Promise<{ apiKey: ApiKeyView; key: string }> {
    const max = this.options.maxRollOverlapSeconds;
    if (!Number.isSafeInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > max) {
      throw new ApiKeyRequestError(
        'validation_failed',
        `overlapSeconds must be a whole number of seconds from 0 to ${max}.`,
      );
    }
    const { key, prefix, hash } = generateApiKey(this.options.keyPrefix);
    const now = this.authenticator.now();
    const until = new Date(now + overlapSeconds * 1000);
    const record = await this.store.roll(id, { hash, prefix }, until, {
      at: new Date(now),
      ...options,
    });
    if (!record) {
      const current = await this.store.findById(id);
      const live =
        current !== null &&
        !current.revokedAt &&
        (current.expiresAt === null || current.expiresAt.getTime() > now);
      const overtaken =
        options.receivedAt !== undefined &&
        current?.rolledAt != null &&
        current.rolledAt.getTime() >= options.receivedAt.getTime();
      if (live && overtaken) {
        throw new ApiKeyRequestError(
          'conflict',
          `The API key ${id} was rolled by another request while this one was under way; its secret is the one that roll answered, and this roll changed nothing.`,
        );
      }
      throw new ApiKeyRequestError('not_found', `No active API key with id ${id}.`);
    }
    this.authenticator.remember(record);
    await this.announce(record);
    return { apiKey: this.view(record), key };
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.store.revoke(id, new Date()))) {
      throw new ApiKeyRequestError('not_found', `No active API key with id ${id}.`);
    }
    this.authenticator.forget(id);
    const record = await this.store.findById(id);
    if (record) await this.announce(record);
  }

  /** Tells every instance what the key's secrets now are (a revoked key's: none). */
  private announce(record: ApiKeyRecord): Promise<void> {
    const now = this.authenticator.now();
    const secrets = secretsOf(record)
      .filter(({ until }) => until > now)
      .map(({ hash, until }) => ({ hash: secretPrefix(hash), until }));
    const ended = [record.hash, record.previousHash]
      .filter((hash): hash is string => hash !== null)
      .map(secretPrefix)
      .filter((prefix) => !secrets.some((secret) => secret.hash === prefix));
    return this.changes.publish({ keyId: record.id, secrets, ended });
  }

  count(): Promise<number> {
    return this.store.count();
  }

  private check({ name, plan, limits, scopes, expiresAt }: IssueApiKey): void {
    const nameProblem = keyNameProblem(name);
    if (nameProblem) throw new ApiKeyRequestError('validation_failed', `name ${nameProblem}.`);
    if (scopes !== undefined) this.checkScopes(scopes);
    if (expiresAt) this.checkExpiry(expiresAt);
    if (!isPlan(plan)) {
      throw new ApiKeyRequestError('validation_failed', `plan must be one of ${PLANS.join(', ')}.`);
    }
    if (plan !== 'enterprise') {
      if (limits !== undefined) {
        throw new ApiKeyRequestError(
          'validation_failed',
          `limits are set by the ${plan} plan and cannot be given.`,
        );
      }
      return;
    }
    if (!limits) {
      throw new ApiKeyRequestError(
        'validation_failed',
        'limits are required for the enterprise plan.',
      );
    }
    for (const limit of ['perMinute', 'perDay', 'openOrders', 'webhookEndpoints'] as const) {
      const value = limits[limit];
      if ((limit === 'openOrders' || limit === 'webhookEndpoints') && value === undefined) continue;
      if (!Number.isSafeInteger(value) || value! < 1) {
        throw new ApiKeyRequestError(
          'validation_failed',
          `limits.${limit} must be a positive integer.`,
        );
      }
    }
    if (limits.perMinute > limits.perDay) {
      throw new ApiKeyRequestError(
        'validation_failed',
        'limits.perMinute cannot exceed limits.perDay.',
      );
    }
  }

  private checkExpiry(expiresAt: Date): void {
    const ahead = expiresAt.getTime() - this.authenticator.now();
    const maxDays = Math.floor(this.options.maxLifetimeMs / 86_400_000);
    if (!(ahead > 0) || ahead > this.options.maxLifetimeMs) {
      throw new ApiKeyRequestError(
        'validation_failed',
        `expiresAt must be an instant in the future, at most ${maxDays} days away.`,
      );
    }
  }

  private checkScopes(scopes: readonly string[]): void {
    const { known } = this.options.scopes;
    const problem = !Array.isArray(scopes)
      ? 'must be a list'
      : scopes.length === 0
        ? 'must name at least one scope'
        : scopes.find((scope) => !known.includes(scope))
          ? `must each be one of ${known.join(', ')}`
          : new Set(scopes).size !== scopes.length
            ? 'must not repeat a scope'
            : null;
    if (problem) throw new ApiKeyRequestError('validation_failed', `scopes ${problem}.`);
  }

  private view(record: ApiKeyRecord): ApiKeyView {
    const limits =
      record.plan === 'enterprise'
        ? enterpriseLimits(record.limits!)
        : this.options.plans[record.plan];
    const { id, name, plan, scopes, organizationId, prefix, expiresAt } = record;
    const overlap = record.previousHashExpiresAt;
    return {
      id,
      name,
      plan,
      limits,
      scopes,
      organizationId,
      prefix,
      expiresAt,
      previousSecretValidUntil:
        overlap && overlap.getTime() > this.authenticator.now() ? overlap : null,
      createdAt: record.createdAt,
      revokedAt: record.revokedAt,
      lastUsedAt: record.lastUsedAt,
    };
  }
}
