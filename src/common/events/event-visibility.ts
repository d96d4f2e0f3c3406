import { isStaffOf } from '../ownership';
import { Requester } from '../requester';
import { EventType, readersOf } from './event';

/**
 * Whether a key may read an event: exactly when it could read the event's object (an order: its
 * own key, and the staff managing orders of the organisation whose pet it is). The feed
 * filters by this rule and every webhook delivery re-checks it when it is sent, so an endpoint
 * never receives what its key could not read at that moment.
 */
export function mayRead(
  event: {
    readonly type: EventType;
    readonly owner?: string | null;
    readonly organizationId?: number | null;
  },
  requester: Requester,
): boolean {
  switch (readersOf(event.type)) {
    case 'pets':
      return requester.scopes.includes('pets:read');
    case 'orders':
      return (
        (requester.scopes.includes('orders:manage') &&
          event.organizationId != null &&
          isStaffOf(requester, event.organizationId)) ||
        (event.owner === requester.keyId && requester.scopes.includes('orders:read'))
      );
    case 'endpoint':
      return event.owner === requester.keyId;
  }
}
