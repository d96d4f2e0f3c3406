import { Injectable } from '@nestjs/common';
import { ApiClient, ApiKeyAuthenticator, RequestWithHeaders } from '@pet-adoption/api-keys';
import {
  RateLimits,
  RateLimitSubject,
  RateLimitSubjectResolver,
  UnverifiedSubject,
} from '@pet-adoption/rate-limit';
import { keyBudgetSubject, keySubject } from '../common/rate-limit-subjects';

/**
 * How long a key this instance has never seen, from an address with no budget left, may take to
 * become known before it is refused: a key issued elsewhere is broadcast to every instance within
 * it (CONTRACT.md, "Trust, round 3").
 */
export const NEW_KEY_GRACE_MS = 100;

/**
 * Counts a request against its API key's plan; requests without a valid key go per address, and
 * a key this instance has never seen is charged to the address before it is looked up.
 */
@Injectable()
export class ApiKeyRateLimitSubjectResolver extends RateLimitSubjectResolver {
  constructor(private readonly authenticator: ApiKeyAuthenticator) {
    super();
  }

  async resolve(request: RequestWithHeaders): Promise<RateLimitSubject | UnverifiedSubject | null> {
    // A key this instance has never found is checked only once its address has paid for it.
    if (this.authenticator.isUnverified(request)) {
      return new UnverifiedSubject(
        () => this.subjectOf(request),
        () => this.authenticator.becomesKnown(request, NEW_KEY_GRACE_MS),
      );
    }
    return this.subjectOf(request);
  }

  private async subjectOf(request: RequestWithHeaders): Promise<RateLimitSubject | null> {
    const result = await this.authenticator.authenticate(request);
    return result.ok ? keySubjectOf(result.client) : null;
  }
}

/** What an API key's requests are counted as: its subject, with its plan's limits. */
export function keySubjectOf(client: ApiClient): RateLimitSubject {
  return { id: keySubject(client.keyId), limits: client.limits };
}

/**
 * How many times a key's per-minute limit its conditional reads may be answered in a minute
 * (CONTRACT.md "Trust, round 4": 304s stay off the plan's budget, but not unlimited).
 */
export const CONDITIONAL_BUDGET_FACTOR = 10;

/** Minutes in a day: a budget counted per minute only is given a day window it never reaches. */
const MINUTES_A_DAY = 1440;

/** A per-minute budget, with a day window that never binds before the minute's. */
const perMinuteOnly = (perMinute: number): RateLimits => ({
  perMinute,
  perDay: perMinute * MINUTES_A_DAY,
});

/** The conditional budgets made, per plan's limits object: one each, not one per request. */
const conditionalLimits = new WeakMap<RateLimits, RateLimits>();

/**
 * What a key's conditional reads (with If-None-Match) are counted as, as they arrive: a budget of
 * 10× its per-minute limit, apart from its plan's, which its 304s never touch (docs/adr/0051).
 */
export function conditionalSubjectOf(client: ApiClient): RateLimitSubject {
  let limits = conditionalLimits.get(client.limits);
  if (!limits) {
    limits = perMinuteOnly(client.limits.perMinute * CONDITIONAL_BUDGET_FACTOR);
    conditionalLimits.set(client.limits, limits);
  }
  return { id: keyBudgetSubject(client.keyId, 'conditional'), limits, budget: 'conditional' };
}

/** The budgets of operations' own made, by per-minute limit: one each. */
const ownLimits = new Map<number, RateLimits>();

/** What a key's requests of an operation with a budget of its own are counted as. */
export function ownBudgetSubjectOf(
  client: ApiClient,
  budget: { name: string; perMinute: number },
): RateLimitSubject {
  let limits = ownLimits.get(budget.perMinute);
  if (!limits) ownLimits.set(budget.perMinute, (limits = perMinuteOnly(budget.perMinute)));
  return { id: keyBudgetSubject(client.keyId, budget.name), limits, budget: budget.name };
}
