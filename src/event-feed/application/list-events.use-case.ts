import { Injectable } from '@nestjs/common';
import { Event } from '../../common/events/event';
import { EventReference } from '../../common/events/event-id';
import { DEFAULT_PAGE_SIZE } from '../../common/paging';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EventFeed } from './event-feed';
import { feedScopes, eventOf, readerOf } from './feed-reader';

export interface ListEventsQuery {
  /** Only events after this one (its id, or a v1.2 id). */
  after?: EventReference;
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
    { after, type, limit = DEFAULT_PAGE_SIZE }: ListEventsQuery,
  ): Promise<EventPage> {
    checkScope(feedScopes(), requester.scopes);
    const rows = await this.feed.page({
      reader: readerOf(requester),
      after: await this.numberAfter(after),
      type,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return {
      events: page.map(eventOf),
      nextAfter: rows.length > limit ? page[page.length - 1].id : null,
    };
  }

  /** The number the page starts above: an id's own; a v1.2 id's, as the feed finds it. */
  private async numberAfter(after: EventReference | undefined): Promise<bigint | null> {
    if (after === undefined) return null;
    return 'number' in after ? after.number : this.feed.numberAfterLegacyPosition(after.legacy);
  }
}
