import { Event } from '../../common/events/event';
import { declaredEventTypes } from '../../common/events/event-types';
import { Requester } from '../../common/requester';
import { Scope } from '../../common/scopes';
import { StoredEvent } from '../domain/event';
import { FeedReader } from './event-feed';

/** The feed needs no scope of its own: any scope that reads an object reads its events. */
export const FEED_SCOPES: readonly Scope[] = ['pets:read', 'orders:read', 'orders:manage'];

/** What a requester may read of the feed, by the visibility rule (mayRead). */
export function readerOf({ keyId, scopes, organizationId }: Requester): FeedReader {
  const readsBeyondOwn = declaredEventTypes().some(({ readers }) =>
    'everyoneWith' in readers
      ? scopes.includes(readers.everyoneWith)
      : 'organizationStaffWith' in readers &&
        organizationId !== null &&
        scopes.includes(readers.organizationStaffWith),
  );
  return { keyId, scopes, organizationId, onlyOwn: !readsBeyondOwn };
}

/** The event as the API answers it. */
export function eventOf({ id, type, occurredAt, data }: StoredEvent): Event {
  return { id, type, occurredAt, data };
}
