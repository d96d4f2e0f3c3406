import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  admitAuthenticated,
  allowsAnonymous,
  ApiKeyAuthenticator,
  Authentication,
  getApiClient,
} from '@pet-adoption/api-keys';
import {
  RateLimiter,
  RateLimitReply,
  RateLimitSubjectResolver,
  RequestWithAddress,
  skipsThrottle,
} from '@pet-adoption/rate-limit';
import { checkScope, Scope } from '../common/scopes';
import { routeFactsOf } from '../platform/http/route-facts/route-facts';
import { keySubjectOf } from './api-key-rate-limit-subject.resolver';

/** What a route states about who may call it, read from its metadata once. */
interface RouteAccess {
  /** Counted by the rate limiter (no `@SkipThrottle()`). */
  limited: boolean;
  /** Callable without a key (`@AllowAnonymous()`). */
  anonymous: boolean;
  /** The scopes of which the key needs one (`@RequiresScope()`), if any. */
  scopes?: readonly Scope[];
  /** A valid key's request is not counted (`@Uncounted()`). */
  uncounted: boolean;
}

type Request = RequestWithAddress & { headers: Record<string, string | string[] | undefined> };

/**
 * Who may call the API, and how often, in one guard: the rate limit (429), then the key (401), then
 * the scope (403), the order of CONTRACT.md "Errors". The route's facts (`@SkipThrottle()`,
 * `@AllowAnonymous()`, `@RequiresScope()`) are read from its metadata once, not per request. A key
 * this instance trusts still is answered from memory: the only wait is the rate limiter's one store
 * call, and a route the limiter skips is answered synchronously. A key it has never found is a
 * possible guess and is charged to its address before it is looked up (docs/adr/0023).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAccess>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly resolver: RateLimitSubjectResolver,
    private readonly limiter: RateLimiter,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const route = this.routeOf(context);
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const reply = http.getResponse<RateLimitReply>();
    const known = this.authenticator.authenticateNow(request);
    if (route.uncounted) return this.admitUncounted(request, reply, route, known);
    if (!route.limited && known) return this.admit(known, request, reply, route);
    return this.limitThenAdmit(request, reply, route, known);
  }

  /**
   * A route a valid key calls for free: only a request that turns out to have no valid key is
   * counted, for its address; a key never seen here pays from its address before it is looked
   * up, as on every route, so that a free route is no free way to guess keys.
   */
  private async admitUncounted(
    request: Request,
    reply: RateLimitReply,
    route: RouteAccess,
    known: Authentication | undefined,
  ): Promise<boolean> {
    if (known?.ok) return this.admit(known, request, reply, route);
    if (known === undefined && this.authenticator.isUnverified(request)) {
      await this.limiter.limit(request, reply, null);
      return this.admit(await this.authenticator.authenticate(request), request, reply, route);
    }
    const result = known ?? (await this.authenticator.authenticate(request));
    if (!result.ok) await this.limiter.limit(request, reply, null);
    return this.admit(result, request, reply, route);
  }

  private async limitThenAdmit(
    request: Request,
    reply: RateLimitReply,
    route: RouteAccess,
    known: Authentication | undefined,
  ): Promise<boolean> {
    if (route.limited) {
      const subject =
        known === undefined
          ? await this.resolver.resolve(request)
          : known.ok
            ? keySubjectOf(known.client)
            : null;
      await this.limiter.limit(request, reply, subject);
    }
    const result = known ?? (await this.authenticator.authenticate(request));
    return this.admit(result, request, reply, route);
  }

  private admit(
    result: Authentication,
    request: Request,
    reply: RateLimitReply,
    route: RouteAccess,
  ): boolean {
    admitAuthenticated(result, request, reply, () => route.anonymous);
    if (route.scopes?.length) checkScope(route.scopes, getApiClient(request)?.scopes ?? []);
    return true;
  }

  private routeOf(context: ExecutionContext): RouteAccess {
    const controller = context.getClass();
    const handler = context.getHandler();
    let ofController = this.routes.get(controller);
    if (!ofController) this.routes.set(controller, (ofController = new WeakMap()));
    let route = ofController.get(handler);
    if (!route) {
      route = {
        limited: !skipsThrottle(this.reflector, handler, controller),
        anonymous: allowsAnonymous(this.reflector, handler, controller),
        scopes: routeFactsOf(handler)?.scopes,
        uncounted: routeFactsOf(handler)?.uncounted === true,
      };
      ofController.set(handler, route);
    }
    return route;
  }
}
