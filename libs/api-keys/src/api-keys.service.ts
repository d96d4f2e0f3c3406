import { Inject, Injectable } from '@nestjs/common';
import { ApiKeyRecord } from './api-key';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { generateApiKey } from './api-key-secret';
import { ApiKeyStore } from './api-key-store';
import { ApiKeyRequestError } from './api-key.errors';
import { API_KEYS_OPTIONS, ResolvedApiKeysOptions } from './api-keys.options';
import { enterpriseLimits, isPlan, KeyLimits, Plan, PLANS, RateLimits } from './plans';

export interface IssueApiKey {
  name: string;
  plan: Plan;
  limits?: RateLimits;
  /** What the key may do; the configured defaults when not given. */
  scopes?: readonly string[];
}

/** An API key as shown to an administrator: never the hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  plan: Plan;
  limits: KeyLimits;
  scopes: string[];
  prefix: string;
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

/** The administration of keys: issue (the only time a key is seen), list and revoke. */
@Injectable()
export class ApiKeys {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly authenticator: ApiKeyAuthenticator,
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
      prefix,
      hash,
    });
    this.authenticator.remember(record);
    return { apiKey: this.view(record), key };
  }

  async list(): Promise<ApiKeyView[]> {
    return (await this.store.list()).map((record) => this.view(record));
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.store.revoke(id, new Date()))) {
      throw new ApiKeyRequestError('not_found', `No active API key with id ${id}.`);
    }
    this.authenticator.forget(id);
  }

  count(): Promise<number> {
    return this.store.count();
  }

  private check({ name, plan, limits, scopes }: IssueApiKey): void {
    const nameProblem = keyNameProblem(name);
    if (nameProblem) throw new ApiKeyRequestError('validation_failed', `name ${nameProblem}.`);
    if (scopes !== undefined) this.checkScopes(scopes);
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
    for (const limit of ['perMinute', 'perDay', 'openOrders'] as const) {
      const value = limits[limit];
      if (limit === 'openOrders' && value === undefined) continue;
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
    const { id, name, plan, scopes, prefix, createdAt, revokedAt, lastUsedAt } = record;
    return { id, name, plan, limits, scopes, prefix, createdAt, revokedAt, lastUsedAt };
  }
}
