import { HttpException, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { clientBudget, RequestWithAddress } from './client-address';
import { RateLimitClock } from './clock';
import { rateLimitHeaders, secondsUntil } from './headers';
import { RATE_LIMIT_OPTIONS, ResolvedRateLimitOptions } from './rate-limit.options';
import {
  RateLimitSubject,
  RateLimitSubjectResolver,
  UnverifiedSubject,
} from './rate-limit-subject.resolver';
import { WindowStoreUnavailableError } from './resilient-window-store';
import { HitResult, WindowStore } from './window-store';

interface Reply {
  header(name: string, value: string): unknown;
}

/** The error codes this library answers with, in the body of its HttpExceptions. */
export type RateLimitErrorCode = 'rate_limited' | 'key_temporarily_banned' | 'service_unavailable';

/** An HttpException whose body names its code, as an application's error filter expects. */
const refusal = (code: RateLimitErrorCode, message: string, status: number) =>
  new HttpException({ code, message }, status);

/** The one throttler RateLimitModule registers: `@SkipThrottle()` skips it by this name. */
export const THROTTLER_NAME = 'default';

/**
 * @nestjs/throttler's guard, counting per client (API key, or address when there is none) instead
 * of per route, both windows in one store call, with the headers on every response it sees.
 * `@SkipThrottle()` exempts a route or controller.
 */
@Injectable()
export class PlanThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly windows: WindowStore,
    private readonly resolver: RateLimitSubjectResolver,
    private readonly clock: RateLimitClock,
    @Inject(RATE_LIMIT_OPTIONS) private readonly limiter: ResolvedRateLimitOptions,
  ) {
    super(options, storage, reflector);
  }

  /**
   * The throttler's extension point, called once per request for the one named throttler unless
   * `@SkipThrottle()` exempts the route (the base guard reads that): one store call, both windows,
   * per client rather than per route. The throttler's own ttl and limit do not apply.
   */
  protected override async handleRequest({ context }: ThrottlerRequest): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context) as {
      req: RequestWithAddress;
      res: Reply;
    };
    let subject = await this.resolver.resolve(req);
    if (subject instanceof UnverifiedSubject) {
      // A possible guess pays from the address's budget before any work is done to check it.
      const charged = await this.hit(this.addressOf(req), res);
      if (charged.outcome !== 'admitted') this.refuse(charged, res);
      subject = await subject.verify();
      if (subject === null) return true;
    }
    const result = await this.hit(subject ?? this.addressOf(req), res);
    if (result.outcome !== 'admitted') this.refuse(result, res);
    return true;
  }

  /**
   * Counts a request for the subject and writes the headers of its windows, from the instant the
   * store decided at (the Redis server's, with Redis), not this process's clock.
   */
  private async hit(subject: RateLimitSubject, res: Reply): Promise<HitResult> {
    let result: HitResult;
    try {
      result = await this.windows.hit({
        subject: subject.id,
        limits: subject.limits,
        now: this.clock.now(),
        banThreshold: this.limiter.banThreshold,
        banMs: this.limiter.banSeconds * 1000,
      });
    } catch (error) {
      if (!(error instanceof WindowStoreUnavailableError)) throw error;
      res.header('Retry-After', String(error.retryAfterSeconds));
      throw refusal('service_unavailable', 'Rate limiting is unavailable; retry later.', 503);
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(result.windows, result.now)))
      res.header(name, value);
    return result;
  }

  /** Answers a refused request: 429, with the time to wait. */
  private refuse(result: Exclude<HitResult, { outcome: 'admitted' }>, res: Reply): never {
    const { now } = result;
    if (result.outcome === 'banned') {
      const seconds = Math.max(1, Math.ceil((result.bannedUntil - now) / 1000));
      res.header('Retry-After', String(seconds));
      throw refusal(
        'key_temporarily_banned',
        `Too many requests after being rate limited: banned for ${seconds} more seconds.`,
        429,
      );
    }
    const window = result.windows.find((w) => w.name === result.exhausted)!;
    res.header('Retry-After', String(secondsUntil(window.resetAt, now)));
    throw refusal(
      'rate_limited',
      `The per-${window.name} limit of ${window.limit} requests is reached; retry after the window ends.`,
      429,
    );
  }

  /** The subject of a request without a known client: its address, with the anonymous limits. */
  private addressOf(request: RequestWithAddress): RateLimitSubject {
    return { id: `ip:${clientBudget(request)}`, limits: this.limiter.anonymousLimits };
  }
}
