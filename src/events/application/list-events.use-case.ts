import { Injectable } from '@nestjs/common';
import { Event, EventPosition, eventIdOf, FIRST_POSITION } from '../../common/events/event';
import { DEFAULT_PAGE_SIZE } from '../../common/paging';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EventFeed } from './event-feed';
import { FEED_SCOPES, eventOf, readerOf } from './feed-reader';

export interface ListEventsQuery {
  /** Only events after this position. */
  after?: EventPosition;
  /** The name of an event type the feed shows. */
  type?: string;
  limit?: number;
}

export interface EventPage {
  events: Event[];
  /** Event id to pass as `after` for the next page, or null when this page is the last. */
  nextAfter: string | null;
}

/** The feed: the events the key may read (as it could read their objects), ascending. */
@Injectable()
export class ListEvents {
  constructor(private readonly feed: EventFeed) {}

  async execute(
    requester: Requester,
    { after = FIRST_POSITION, type, limit = DEFAULT_PAGE_SIZE }: ListEventsQuery,
  ): Promise<EventPage> {
    checkScope(FEED_SCOPES, requester.scopes);
    const rows = await this.feed.page({
      reader: readerOf(requester),
      after,
      type,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return {
      events: page.map(eventOf),
      nextAfter: rows.length > limit ? eventIdOf(page[page.length - 1].position) : null,
    };
  }
}
