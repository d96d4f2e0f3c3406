import { Event } from '../../common/events/event';
import {
  declaredEventTypes,
  EventReaders,
  EventType,
  inFeed,
} from '../../common/events/event-types';
import { Requester } from '../../common/requester';
import { Scope } from '../../common/scopes';
import { StoredEvent } from '../domain/event';
import { FeedReader } from './event-feed';

/** The scopes a type's readers name, the owner's before the staff's. */
function scopesOf(readers: EventReaders): Scope[] {
  if ('everyoneWith' in readers) return [readers.everyoneWith];
  if ('ownerWith' in readers) return [readers.ownerWith, readers.organizationStaffWith];
  return [];
}

/**
 * The scopes that let a key read the feed: every scope some declared type of the feed names
 * (ADR 0042), in the order declared, so that a feature's new type is readable with its own scope
 * and no edit here. The feed needs no scope of its own: any scope that reads an object reads its
 * events. Asked once every feature has loaded (a request, the document), never at import.
 */
export function feedScopes(): Scope[] {
  return [
    ...new Set(
      declaredEventTypes()
        .filter(inFeed)
        .flatMap(({ readers }) => scopesOf(readers)),
    ),
  ];
}

/** `pet.*` when every type of the object `pet` is in the group, else the types' names. */
function namesOf(group: readonly EventType[]): string {
  const object = group[0].name.split('.')[0];
  const ofObject = declaredEventTypes().filter((type) => type.name.split('.')[0] === object);
  return ofObject.every((type) => group.includes(type))
    ? `\`${object}.*\``
    : group.map(({ name }) => `\`${name}\``).join(', ');
}

/** What each scope lets a key read of the feed, for the document: one clause per readers rule. */
export function feedScopesDescription(): string {
  const groups = new Map<string, EventType[]>();
  for (const type of declaredEventTypes().filter(inFeed)) {
    const key = JSON.stringify(type.readers);
    groups.set(key, [...(groups.get(key) ?? []), type]);
  }
  const clauses = [...groups.values()].map((group) => {
    const { readers } = group[0];
    if ('everyoneWith' in readers) return `${namesOf(group)} with \`${readers.everyoneWith}\``;
    if (!('ownerWith' in readers)) return namesOf(group);
    return readers.ownerWith === readers.organizationStaffWith
      ? `${namesOf(group)} of the key's own and of its organisation's with \`${readers.ownerWith}\``
      : `${namesOf(group)} of the key's own with \`${readers.ownerWith}\`, of its organisation's with \`${readers.organizationStaffWith}\``;
  });
  return `Which events, by the scopes of the key: ${clauses.join('; ')}.`;
}

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
