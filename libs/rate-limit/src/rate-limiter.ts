import { HttpException, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SkipThrottle } from '@nestjs/throttler';
import { clientBudget, RequestWithAddress } from './client-address';
import { RateLimitClock } from './clock';
import { rateLimitHeaders, rateLimitPolicy, secondsUntil } from './headers';
import { RATE_LIMIT_OPTIONS, ResolvedRateLimitOptions } from './rate-limit.options';
import { RateLimitSubject, UnverifiedSubject } from './rate-limit-subject.resolver';
import { WindowStoreUnavailableError } from './resilient-window-store';
import { HitResult, WindowStore, WindowsNow } from './window-store';

/** What the limiter writes its headers on: a Fastify reply, a Node response, a test double. */
export interface RateLimitReply {
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
 * The metadata key `@SkipThrottle()` of @nestjs/throttler writes for that throttler, learnt from
 * the decorator itself (the package exports no constant for it), once.
 */
const SKIP_THROTTLE_KEY = (() => {
  const probe = class {};
  SkipThrottle({ [THROTTLER_NAME]: true })(probe);
  const key = Reflect.getMetadataKeys(probe)[0] as string | undefined;
  if (key === undefined) throw new Error('@SkipThrottle() wrote no metadata.');
  return key;
})();

/** Whether `@SkipThrottle()` exempts a handler or its controller (the handler's word first). */
export function skipsThrottle(reflector: Reflector, handler: object, controller: object): boolean {
  return (
    reflector.getAllAndOverride<boolean>(SKIP_THROTTLE_KEY, [
      handler as () => void,
      controller as () => void,
    ]) === true
  );
}

/**
 * Counts a request for its client, per plan, both windows in one store call, and writes the
 * headers of its windows; refuses it with 429 (or 503 when the store cannot count it in time).
 * Used by PlanThrottlerGuard, and by an application's own guard that limits and authenticates in
 * one step.
 */
@Injectable()
export class RateLimiter {
  constructor(
    private readonly windows: WindowStore,
    private readonly clock: RateLimitClock,
    @Inject(RATE_LIMIT_OPTIONS) private readonly options: ResolvedRateLimitOptions,
  ) {}

  /**
   * Counts the request for `subject` (null: no known client, counted per address). A possible
   * guess (UnverifiedSubject) pays from the address's budget before any work is done to check
   * it, and is counted for its client too if the check names one.
   */
  async limit(
    request: RequestWithAddress,
    reply: RateLimitReply,
    subject: RateLimitSubject | UnverifiedSubject | null,
  ): Promise<void> {
    if (subject instanceof UnverifiedSubject) {
      const charged = await this.hit(this.addressOf(request), reply);
      if (charged.outcome !== 'admitted' && !(await subject.vouched())) this.refuse(charged, reply);
      subject = await subject.verify();
      if (subject === null) return;
    }
    const result = await this.hit(subject ?? this.addressOf(request), reply);
    if (result.outcome !== 'admitted') this.refuse(result, reply, subject?.budget);
  }

  /**
   * The subject's windows as they stand, counting nothing: for a request that asks about its own
   * budget, and costs none of it. 503 when the store cannot say in time.
   */
  async peek(subject: RateLimitSubject): Promise<WindowsNow> {
    try {
      return await this.windows.peek(subject.id, subject.limits, this.clock.now());
    } catch (error) {
      if (!(error instanceof WindowStoreUnavailableError)) throw error;
      throw refusal('service_unavailable', 'Rate limiting is unavailable; retry later.', 503);
    }
  }

  /**
   * Writes the subject's headers as they stand, counting nothing: for an answer that costs no
   * budget but tells the client where it stands (a 304 of a conditional read). 503 as `peek`.
   */
  async describe(reply: RateLimitReply, subject: RateLimitSubject): Promise<void> {
    const { windows, now } = await this.peek(subject);
    const headers = rateLimitHeaders(windows, now, rateLimitPolicy(subject.limits));
    for (const name in headers) reply.header(name, headers[name]);
  }

  /**
   * Counts a request for the subject and writes the headers of its windows, from the instant the
   * store decided at (the Redis server's, with Redis), not this process's clock.
   */
  private async hit(subject: RateLimitSubject, reply: RateLimitReply): Promise<HitResult> {
    let result: HitResult;
    try {
      result = await this.windows.hit({
        subject: subject.id,
        limits: subject.limits,
        now: this.clock.now(),
        banThreshold: this.options.banThreshold,
        banMs: this.options.banSeconds * 1000,
      });
    } catch (error) {
      if (!(error instanceof WindowStoreUnavailableError)) throw error;
      reply.header('Retry-After', String(error.retryAfterSeconds));
      throw refusal('service_unavailable', 'Rate limiting is unavailable; retry later.', 503);
    }
    const headers = rateLimitHeaders(result.windows, result.now, rateLimitPolicy(subject.limits));
    for (const name in headers) reply.header(name, headers[name]);
    return result;
  }

  /** Answers a refused request: 429, with the time to wait. */
  private refuse(
    result: Exclude<HitResult, { outcome: 'admitted' }>,
    reply: RateLimitReply,
    budget?: string,
  ): never {
    const { now } = result;
    if (result.outcome === 'banned') {
      const seconds = Math.max(1, Math.ceil((result.bannedUntil - now) / 1000));
      reply.header('Retry-After', String(seconds));
      throw refusal(
        'key_temporarily_banned',
        `Too many requests after being rate limited: banned for ${seconds} more seconds.`,
        429,
      );
    }
    const window = result.windows.find((w) => w.name === result.exhausted)!;
    reply.header('Retry-After', String(secondsUntil(window.resetAt, now)));
    throw refusal(
      'rate_limited',
      `The per-${window.name} limit of ${window.limit} ${budget === undefined ? '' : `${budget} `}requests is reached; retry after the window ends.`,
      429,
    );
  }

  /** The subject of a request without a known client: its address, with the anonymous limits. */
  private addressOf(request: RequestWithAddress): RateLimitSubject {
    return { id: `ip:${clientBudget(request)}`, limits: this.options.anonymousLimits };
  }
}
