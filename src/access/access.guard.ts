import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  admitAuthenticated,
  allowsAnonymous,
  ApiClient,
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
  UnverifiedSubject,
} from '@pet-adoption/rate-limit';
import { checkScope, Scope } from '../common/scopes';
import { deferCount, takeDeferredCount } from '../platform/http/conditional-read/deferred-count';
import { OwnBudget, routeFactsOf, scopesOfRoute } from '../platform/http/route-facts/route-facts';
import {
  conditionalSubjectOf,
  keySubjectOf,
  NEW_KEY_GRACE_MS,
  ownBudgetSubjectOf,
} from './api-key-rate-limit-subject.resolver';

/** What a route states about who may call it, read from its metadata once. */
interface RouteAccess {
  /** Counted by the rate limiter (no `@SkipThrottle()`). */
  limited: boolean;
  /** Callable without a key (`@AllowAnonymous()`). */
  anonymous: boolean;
  /** The scopes of which the key needs one (`@RequiresScope()`), if any. */
  scopes?: readonly Scope[];
  /** A valid key's request is not counted (`@Uncounted()`)... */
  uncounted: boolean;
  /** ...except in a budget of the key's own for the operation, when it states one. */
  ownBudget?: OwnBudget;
  /**
   * With If-None-Match, a valid key's request is counted once answered, and a 304 not at all
   * (`@ConditionalRead()`).
   */
  conditional: boolean;
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
    if (route.conditional && request.headers['if-none-match'] !== undefined)
      return this.admitUncounted(request, reply, route, known, true);
    if (!route.limited && known) return this.admit(known, request, reply, route);
    return this.limitThenAdmit(request, reply, route, known);
  }

  /**
   * A route a valid key calls for free: only a request that turns out to have no valid key is
   * counted, for its address; a key never seen here pays from its address before it is looked
   * up, as on every route, so that a free route is no free way to guess keys. A conditional
   * read (`countLater`) is admitted so too, its key's count left for its answer to settle.
   */
  private async admitUncounted(
    request: Request,
    reply: RateLimitReply,
    route: RouteAccess,
    known: Authentication | undefined,
    countLater = false,
  ): Promise<boolean> {
    if (known?.ok) return this.admitInOwnBudget(known, request, reply, route, countLater);
    if (known === undefined && this.authenticator.isUnverified(request)) {
      // Charged to its address, as a guess; not counted for its key once known (the route is
      // free), and not refused for the address if it is a key issued elsewhere a moment ago.
      await this.limiter.limit(
        request,
        reply,
        new UnverifiedSubject(
          () => Promise.resolve(null),
          () => this.authenticator.becomesKnown(request, NEW_KEY_GRACE_MS),
        ),
      );
      const result = await this.authenticator.authenticate(request);
      return this.admitInOwnBudget(result, request, reply, route, countLater);
    }
    const result = known ?? (await this.authenticator.authenticate(request));
    if (!result.ok) await this.limiter.limit(request, reply, null);
    return this.admitInOwnBudget(result, request, reply, route, countLater);
  }

  /**
   * A valid key on a route with a budget of its own (`GET /v1/keys/self`: 120 a minute per key)
   * is counted there first, and refused 429 with that budget's headers once it is spent: a free
   * route is not an unlimited one (CONTRACT.md, "Trust, round 4").
   */
  private async admitInOwnBudget(
    result: Authentication,
    request: Request,
    reply: RateLimitReply,
    route: RouteAccess,
    countLater: boolean,
  ): Promise<boolean> {
    if (route.ownBudget && result.ok) {
      await this.limiter.limit(request, reply, ownBudgetSubjectOf(result.client, route.ownBudget));
    }
    return this.admit(result, request, reply, route, countLater);
  }

  /**
   * A valid key's conditional read: its count is left on the request for the answer to settle
   * (none for a 304: docs/adr/0051); a key without the scope is counted now, as it would have
   * been before its 403. A key with the scope is counted at once in its conditional budget (10×
   * its per-minute limit, apart from its plan's), and refused 429 before any work once that is
   * spent: its 304s are off the plan's budget, but not unlimited (CONTRACT.md, "Trust, round 4").
   */
  private async admitCountingLater(
    client: ApiClient,
    request: Request,
    reply: RateLimitReply,
    route: RouteAccess,
  ): Promise<boolean> {
    const subject = keySubjectOf(client);
    deferCount(request, {
      count: () => this.limiter.limit(request, reply, subject),
      describe: () => this.limiter.describe(reply, subject),
    });
    try {
      if (route.scopes?.length) checkScope(route.scopes, client.scopes);
    } catch (error) {
      await takeDeferredCount(request)?.count();
      throw error;
    }
    try {
      await this.limiter.limit(request, reply, conditionalSubjectOf(client));
    } catch (error) {
      // Refused before any work: nothing is left for the answer to count.
      takeDeferredCount(request);
      throw error;
    }
    return true;
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
    countLater = false,
  ): boolean | Promise<boolean> {
    admitAuthenticated(result, request, reply, () => route.anonymous);
    if (countLater && result.ok)
      return this.admitCountingLater(result.client, request, reply, route);
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
        scopes: scopesOfRoute(routeFactsOf(handler)),
        uncounted: routeFactsOf(handler)?.uncounted === true,
        ownBudget: routeFactsOf(handler)?.ownBudget,
        conditional: routeFactsOf(handler)?.conditionalRead === true,
      };
      ofController.set(handler, route);
    }
    return route;
  }
}
