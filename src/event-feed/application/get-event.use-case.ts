import { Injectable } from '@nestjs/common';
import { Event } from '../../common/events/event';
import { eventReferenceOf } from '../../common/events/event-id';
import { mayRead } from '../../common/events/event-visibility';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EventNotFoundError } from '../domain/event';
import { EventFeed } from './event-feed';
import { feedScopes, eventOf } from './feed-reader';

@Injectable()
export class GetEvent {
  constructor(private readonly feed: EventFeed) {}

  /** `id` as the client wrote it (a valid event id). */
  async execute(requester: Requester, id: string): Promise<Event> {
    checkScope(feedScopes(), requester.scopes);
    const reference = eventReferenceOf(id);
    const event =
      reference === undefined
        ? null
        : 'number' in reference
          ? await this.feed.findByNumber(reference.number)
          : await this.feed.findByLegacyPosition(reference.legacy);
    // An event the key could not read does not exist for it: the same 404 as one that never did.
    if (!event || !mayRead(event, requester)) {
      throw new EventNotFoundError(id);
    }
    return eventOf(event);
  }
}
