import { EventId } from './event-id';
import { EventType } from './event-types';

/**
 * What happened, as every feature records it and every reader sees it (docs/adr/0030). Plain
 * data: the features that record events, the feed that shows them and the webhooks that push
 * them all read these shapes, and none of them imports another. Each feature declares its own
 * event types (`declareEventTypes`, src/common/events/event-types.ts).
 */

/** An event to record: its type, the object after the change, and whose it is (orders, pings). */
export interface NewEvent {
  /** Its type, as declared by the feature whose object it tells of. */
  readonly type: EventType;
  /** The object after the change (as it was, for a deletion), exactly as the API answers it. */
  readonly data: object;
  /** The API key the object belongs to: an order's, a ping's endpoint's; none for pets. */
  readonly owner?: string;
  /**
   * The organisation the object belongs to: a pet's, an order's pet's. Its staff managing orders
   * read the order events of its pets.
   */
  readonly organization?: number;
}

/** An event as recorded and read back. */
export interface Event {
  /** Opaque, unique, ascending in the feed's order (event-id.ts, docs/adr/0048). */
  readonly id: EventId;
  /** The name of its type (`pet.created`). */
  readonly type: string;
  /** RFC 3339, UTC: the instant of the change (its transaction's). */
  readonly occurredAt: string;
  readonly data: object;
}

export type { EventId } from './event-id';
