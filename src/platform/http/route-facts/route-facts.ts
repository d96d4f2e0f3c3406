import type { Scope } from '../../../common/scopes';
import type { HttpConfig } from '../../config/app-config';

/** A deprecated operation (RFC 9745 Deprecation, RFC 8594 Sunset, a successor link). */
export interface Deprecation {
  /** The instant the operation was deprecated, ISO 8601. */
  since: string;
  /** Which configured sunset applies: the operation answers 410 from that instant on. */
  sunset: keyof HttpConfig['sunsets'];
  /** The successor operation's path, relative to PUBLIC_BASE_URL. */
  successor: string;
  /** How a client moves to the successor, ending a sentence: "use GET /v1/pets with ...". */
  instead: string;
}

/** A budget of a key's own for one operation, apart from its plan's. */
export interface OwnBudget {
  name: string;
  perMinute: number;
}

export type StabilityLevel = 'experimental' | 'beta';

/**
 * What a route states about itself, once, as decorator metadata on its handler: read by the
 * response hook (headers), the sunset guard (410), the scope guard (403) and the OpenAPI builder
 * (the document).
 */
export interface RouteFacts {
  deprecation?: Deprecation;
  stability?: StabilityLevel;
  /** The scopes that each let an API key call the operation; the first is the one to ask for. */
  scopes?: readonly Scope[];
  /**
   * Instead of `scopes`: where they come from once every feature has loaded (the events feed's,
   * from the event types the features declare). Read through `scopesOfRoute`.
   */
  scopesFrom?: () => readonly Scope[];
  /**
   * A sentence of the operation's description written when the document is built, from what the
   * features declared (the feed's: which events each scope reads).
   */
  describedBy?: () => string;
  /** The body may also come as `application/merge-patch+json` (RFC 7396), read as JSON. */
  acceptsMergePatch?: boolean;
  /** The body is an image (JPEG, PNG or WebP), read as bytes; JSON is refused. */
  acceptsImage?: boolean;
  /** The body is a shelter's data file (CSV or NDJSON), read as bytes; JSON is refused. */
  acceptsDataFile?: boolean;
  /**
   * A request with a valid key is not counted against the key's budget (it asks about that
   * budget itself); without a valid key the address pays, as on every route.
   */
  uncounted?: boolean;
  /**
   * With `uncounted`: a valid key's requests are counted in a budget of the key's own for this
   * operation instead (`perMinute` a minute per key, 429 beyond), apart from its plan's, so that a
   * free answer is not an unlimited one. `name` says what its requests are, in the refusal.
   */
  ownBudget?: OwnBudget;
  /**
   * The operation needs no API key, and is counted per client address in a budget of its own, not
   * the key's nor the address's anonymous one: this names that budget for the document.
   */
  keylessBudget?: string;
  /**
   * The answer carries an ETag, and a request whose If-None-Match names it is answered 304 and not
   * counted against the key's budget; any other answer is counted once it is known.
   */
  conditionalRead?: boolean;
}

export const ROUTE_FACTS = 'pet-adoption:route-facts';
/** The operation extension carrying the facts to the OpenAPI builder, which rewrites it. */
export const ROUTE_FACTS_EXTENSION = 'x-route-facts';

/** The scopes a route states, whether listed or derived (`scopesFrom`); undefined: none stated. */
export function scopesOfRoute(facts: RouteFacts | undefined): readonly Scope[] | undefined {
  return facts?.scopes ?? facts?.scopesFrom?.();
}

export function routeFactsOf(handler: object): RouteFacts | undefined {
  return Reflect.getMetadata(ROUTE_FACTS, handler) as RouteFacts | undefined;
}

/** The facts of the route a request matched, from its Fastify config (no look-up). */
export function routeFactsOfRequest(request: {
  routeOptions: { config?: unknown };
}): RouteFacts | undefined {
  return (request.routeOptions.config as { routeFacts?: RouteFacts } | undefined)?.routeFacts;
}

/** A Fastify route path (`/v1/pets/:petId`) as the documents write it (`/v1/pets/{petId}`). */
export function documentedPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
