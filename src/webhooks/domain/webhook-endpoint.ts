import { DomainError } from '../../common/domain-error';
import { feedEventTypeNames } from '../../common/events/event-types';
import { TextBounds, textProblem } from '../../common/text';

/** Why an endpoint stopped receiving: it answered 410 (`gone`), or failed everything too long. */
export const DISABLED_REASONS = ['gone', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/**
 * What an endpoint subscribes to: the name of an event type the feed shows, or `*` for every type
 * its key may read. The types are the features' own (declareEventTypes), known once they start.
 */
export type Subscription = string;

/** Every subscription there can be: the feed's event types, and `*`. */
export const subscriptions = (): string[] => [...feedEventTypeNames(), '*'];

export const ENDPOINT_DESCRIPTION: TextBounds = { min: 0, max: 500, multiline: true };
/** Longest URL accepted: ample for any real receiver. */
export const MAX_URL_LENGTH = 2048;

export type EndpointId = number;
export const MAX_ENDPOINT_ID: EndpointId = Number.MAX_SAFE_INTEGER;

/** An HTTPS address of a key's own that receives the events the key may read, signed. */
export interface WebhookEndpoint {
  readonly id: EndpointId;
  /** The API key that registered it: only that key sees or changes it. */
  readonly owner: string;
  readonly url: string;
  readonly events: readonly Subscription[];
  readonly description: string | null;
  readonly enabled: boolean;
  readonly disabledReason: DisabledReason | null;
  readonly createdAt: string;
}

/** What a client may change of an endpoint; absent members are kept. */
export interface EndpointChanges {
  readonly url?: string;
  readonly events?: readonly Subscription[];
  readonly description?: string | null;
  readonly enabled?: boolean;
}

/**
 * A URL as it is stored and answered: as parsed (its `href`: host lower-cased, IPv4 spellings in
 * dotted decimal, IPv6 compressed, default port dropped, path percent-encoded), so what is shown
 * is where requests go. Text that does not parse is returned as it is, for the address policy to
 * refuse.
 */
export function parsedUrl(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}

/** Whether an endpoint subscribed to `subscriptions` wants events of `type`. */
export function wants(subscribed: readonly Subscription[], type: string): boolean {
  return subscribed.includes('*') || subscribed.includes(type);
}

/** The problem with a list of subscriptions, or undefined: at least one, known, none twice. */
export function subscriptionsProblem(events: readonly string[]): string | undefined {
  if (events.length === 0) return 'events must name at least one event type, or "*".';
  const known = subscriptions();
  const unknown = events.find((type) => !known.includes(type));
  if (unknown !== undefined) {
    return `events must hold event types (${feedEventTypeNames().join(', ')}) or "*", not "${unknown}".`;
  }
  if (new Set(events).size !== events.length) return 'events must not name a type twice.';
  return undefined;
}

/** The problem with a description, or undefined. */
export function descriptionProblem(description: string | null | undefined): string | undefined {
  if (description === null || description === undefined) return undefined;
  const problem = textProblem(description, ENDPOINT_DESCRIPTION);
  return problem ? `description ${problem}.` : undefined;
}

export class WebhookEndpointNotFoundError extends DomainError {
  readonly code = 'not_found';

  /** `id` as the client wrote it. */
  constructor(id: number | string) {
    super(`No webhook endpoint with id ${id}.`);
  }
}

/** A key with as many endpoints as its plan allows adds none (CONTRACT.md, "Trust, round 3"). */
export class WebhookEndpointLimitError extends DomainError {
  readonly code = 'limit_reached';

  constructor(limit: number) {
    super(
      `This key already has ${limit} webhook endpoints, as many as its plan allows: ` +
        'delete one first (deleteWebhookEndpoint, DELETE /v1/webhook-endpoints/{endpointId}).',
    );
  }
}

export class InvalidWebhookEndpointError extends DomainError {
  readonly code = 'validation_failed';
}
