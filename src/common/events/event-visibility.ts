import { isStaffOf } from '../ownership';
import { Requester } from '../requester';
import { eventTypeNamed } from './event-types';

/**
 * Whether a key may read an event: exactly when it could read the event's object, as the event's
 * type declares (EventReaders). The feed filters by this rule and every webhook delivery re-checks
 * it when it is sent, so an endpoint never receives what its key could not read at that moment.
 * An event of a type no feature declares any more is read by no one.
 */
export function mayRead(
  event: {
    readonly type: string;
    readonly owner?: string | null;
    readonly organizationId?: number | null;
  },
  requester: Requester,
): boolean {
  const readers = eventTypeNamed(event.type)?.readers;
  if (!readers) return false;
  if ('everyoneWith' in readers) return requester.scopes.includes(readers.everyoneWith);
  if ('endpointOwner' in readers) return event.owner === requester.keyId;
  return (
    (event.owner === requester.keyId && requester.scopes.includes(readers.ownerWith)) ||
    (requester.scopes.includes(readers.organizationStaffWith) &&
      event.organizationId != null &&
      isStaffOf(requester, event.organizationId))
  );
}
