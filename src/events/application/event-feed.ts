import { EventPosition } from '../../common/events/event';
import { StoredEvent } from '../domain/event';

/**
 * What a key may read of the feed, as the visibility rule (mayRead) reads it: its scopes against
 * those the events keep (as their types declared them), its own objects' events, and those of its
 * organisation's. `onlyOwn`: it reads no event public to a scope and no organisation's, so only
 * events of its own objects can be its (a key that reads its own orders and nothing else).
 */
export interface FeedReader {
  readonly keyId: string;
  readonly scopes: readonly string[];
  readonly organizationId: number | null;
  readonly onlyOwn: boolean;
}

export interface FeedPageQuery {
  reader: FeedReader;
  /** Only events after this position (keyset pagination). */
  after: EventPosition;
  /** The name of an event type. */
  type?: string;
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
