import { LegacyEventPosition } from '../../common/events/event-id';
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
  /** Only events numbered above this (keyset pagination); null: from the first. */
  after: bigint | null;
  /** The name of an event type. */
  type?: string;
  limit: number;
}

/**
 * Port: the recorded events in ascending number, each shown once numbered, which is once no
 * transaction older than its own is under way (so none can appear later before it; docs/adr/0048).
 * Pings (`webhook.test`) are never in it.
 */
export abstract class EventFeed {
  /** The events the reader may see, ascending. */
  abstract page(query: FeedPageQuery): Promise<StoredEvent[]>;
  /** The event of a number, whoever may read it; null when none (or a ping). */
  abstract findByNumber(number: bigint): Promise<StoredEvent | null>;
  /** The event a v1.2 id named, once numbered; null when none (or a ping). */
  abstract findByLegacyPosition(position: LegacyEventPosition): Promise<StoredEvent | null>;
  /** The number a page after a v1.2 id starts above. */
  abstract numberAfterLegacyPosition(position: LegacyEventPosition): Promise<bigint>;
}
