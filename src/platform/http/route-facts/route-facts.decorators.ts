import { applyDecorators, CanActivate, Type, UseGuards, UseInterceptors } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { AllowAnonymous } from '@pet-adoption/api-keys';
import { Scope } from '../../../common/scopes';
import { ApiErrorResponses } from '../errors/api-error-responses.decorator';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiConsumes, DECORATORS } from '@nestjs/swagger';
import { DATA_FILE_MEDIA_TYPES, IMAGE_MEDIA_TYPES } from '../request/json-body';
import {
  Deprecation,
  OwnBudget,
  ROUTE_FACTS,
  ROUTE_FACTS_EXTENSION,
  RouteFacts,
  routeFactsOf,
  StabilityLevel,
} from './route-facts';
import { ConditionalReadInterceptor } from '../conditional-read/conditional-read.interceptor';
import { SunsetGuard } from './sunset.guard';

/** Adds facts to a handler's, where each reader finds them. */
function stating(facts: RouteFacts): MethodDecorator {
  return (target, key, descriptor) => {
    const handler = descriptor.value as object;
    const merged: RouteFacts = { ...routeFactsOf(handler), ...facts };
    Reflect.defineMetadata(ROUTE_FACTS, merged, handler);
    // Fastify keeps a route's config on every request: the response hook reads the facts there.
    RouteConfig({ routeFacts: merged })(target, key, descriptor);
    // The OpenAPI builder finds them on the operation, and writes them out in the document's words.
    const extensions = Reflect.getMetadata(DECORATORS.API_EXTENSION, handler) ?? {};
    Reflect.defineMetadata(
      DECORATORS.API_EXTENSION,
      { ...extensions, [ROUTE_FACTS_EXTENSION]: merged },
      handler,
    );
    return descriptor;
  };
}

/**
 * The operation is deprecated: every response carries Deprecation, Sunset and the successor's
 * Link; from its sunset on it answers 410; the document marks it deprecated and says until when.
 */
export const Deprecated = (deprecation: Deprecation) =>
  applyDecorators(stating({ deprecation }), UseGuards(SunsetGuard));

/** The operation is `experimental` or `beta`: `X-API-Stability` on every response, `x-stability`. */
export const Stability = (stability: StabilityLevel) => stating({ stability });

/**
 * The scope an API key needs for the operation, or any of the alternatives (`orders:read`, or
 * `orders:manage` for every key's orders): anything else is a 403 `forbidden`, after the key check
 * and before the parameters are read (the access guard checks it, src/access). The document
 * states them (`x-required-scopes`).
 */
export const RequiresScope = (scope: Scope, ...alternatives: Scope[]) =>
  applyDecorators(stating({ scopes: [scope, ...alternatives] }), ApiErrorResponses('forbidden'));

/**
 * As RequiresScope, with scopes known only once every feature has loaded (the events feed's, from
 * the declared event types: a feature's new type is readable with its own scope, no edit here).
 * `scopes` is called when the first request comes and when the document is built, never before;
 * `describe`, when the document is built, gives the sentence saying what each scope lets it read.
 */
export const RequiresScopeFrom = (scopes: () => readonly Scope[], describe?: () => string) =>
  applyDecorators(
    stating(describe ? { scopesFrom: scopes, describedBy: describe } : { scopesFrom: scopes }),
    ApiErrorResponses('forbidden'),
  );

/**
 * Any valid key may call the operation, whatever its scopes (a key asking about itself): stated,
 * so that no operation is left open by omission. The document states an empty list.
 */
export const AnyValidKey = () => stating({ scopes: [] });

/**
 * The operation is a partial update whose body also comes as `application/merge-patch+json`
 * (RFC 7396): the body parser reads it as JSON, and the document lists both media types.
 */
export const AcceptsMergePatch = () => stating({ acceptsMergePatch: true });

/**
 * The operation's body is an image, not JSON: the body parser reads `image/jpeg`, `image/png` and
 * `image/webp` for it alone (`@ImageUpload()` hands it to the handler), and the document says so.
 */
export const AcceptsImage = () =>
  applyDecorators(
    stating({ acceptsImage: true }),
    ApiConsumes(...IMAGE_MEDIA_TYPES),
    ApiBody({ required: true, schema: { type: 'string', format: 'binary' } }),
  );

/**
 * The operation's body is a shelter's data file, not JSON: the body parser reads `text/csv` and
 * `application/x-ndjson` for it alone (`@DataFile()` hands it to the handler), up to 50 MiB, and
 * the document says so.
 */
export const AcceptsDataFile = () =>
  applyDecorators(
    stating({ acceptsDataFile: true }),
    ApiConsumes(...DATA_FILE_MEDIA_TYPES),
    ApiBody({ required: true, schema: { type: 'string', format: 'binary' } }),
  );

/**
 * A valid key's request is not counted against its rate limits (it reads its own budget, as
 * GitHub's `GET /rate_limit`); a request without a valid key pays from its address as anywhere,
 * so that no route lets an address guess keys for free. With `ownBudget`, a valid key's requests
 * are counted in a budget of its own for the operation instead, apart from its plan's (free is
 * not unlimited). The document says so.
 */
export const Uncounted = (ownBudget?: OwnBudget) =>
  stating(ownBudget ? { uncounted: true, ownBudget } : { uncounted: true });

/**
 * A read whose answer carries an ETag (the handler's own, a version; else a hash of the body and
 * its Link): a request whose If-None-Match names it gets 304 without a body, not counted against
 * the key's budget; any other answer to a request with If-None-Match is counted once known
 * (ConditionalReadInterceptor; docs/adr/0051). A request without If-None-Match is counted first,
 * as on any route. The document declares the 304, the ETag and If-None-Match.
 */
export const ConditionalRead = () =>
  // On these routes only: a global interceptor put every request of every route through RxJS
  // (docs/adr/0051: 14 % of the CPU and 19 KB of garbage a request on the routes without one).
  applyDecorators(stating({ conditionalRead: true }), UseInterceptors(ConditionalReadInterceptor));

/**
 * The operation needs no API key (what it answers is public), and the access guard neither
 * requires one nor counts it: `guard` counts it instead, per client address, in a budget of its
 * own named `budget` (the photos' image GETs: docs/adr/0043). The document marks it `security: []`.
 */
export const KeylessBudget = (budget: string, guard: Type<CanActivate>) =>
  applyDecorators(
    stating({ keylessBudget: budget }),
    AllowAnonymous(),
    SkipThrottle(),
    UseGuards(guard),
  );
