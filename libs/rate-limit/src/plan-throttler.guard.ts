import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { RequestWithAddress } from './client-address';
import { RateLimiter, RateLimitReply } from './rate-limiter';
import { RateLimitSubjectResolver } from './rate-limit-subject.resolver';

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
    private readonly limiter: RateLimiter,
    private readonly resolver: RateLimitSubjectResolver,
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
      res: RateLimitReply;
    };
    await this.limiter.limit(req, res, await this.resolver.resolve(req));
    return true;
  }
}
