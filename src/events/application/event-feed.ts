import { EventPosition, EventType } from '../../common/events/event';
import { StoredEvent } from '../domain/event';

/** What a key may read of the feed: its scopes, as the visibility rule (mayRead) reads them. */
export interface FeedReader {
  readonly keyId: string;
  readonly readsPets: boolean;
  /** Its own orders' events (`orders:read`). */
  readonly readsOwnOrders: boolean;
  /**
   * The organisation whose pets' order events it reads (`orders:manage` of its staff), if any.
   */
  readonly managesOrdersOf: number | null;
}

export interface FeedPageQuery {
  reader: FeedReader;
  /** Only events after this position (keyset pagination). */
  after: EventPosition;
  type?: EventType;
  limit: number;
}

/**
 * Port: the recorded events in ascending position, each shown once no transaction older than its
 * own is under way (so none can appear later before it). Pings (`webhook.test`) are never in it.
 */
export abstract class EventFeed {
  /** The events the reader may see, ascending. */
  abstract page(query: FeedPageQuery): Promise<StoredEvent[]>;
  /** The event at a position, whoever may read it; null when none (or a ping). */
  abstract findByPosition(position: EventPosition): Promise<StoredEvent | null>;
}
