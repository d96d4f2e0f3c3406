import { declareEventTypes } from '../../common/events/event-types';

/**
 * The events of an order, one per status it reaches: read by the key that placed it (with
 * `orders:read`) and by the staff managing the orders of its pet's organisation.
 */
const readers = { ownerWith: 'orders:read', organizationStaffWith: 'orders:manage' } as const;

export const ORDER_EVENTS = declareEventTypes({
  'order.placed': { readers, description: 'An order was placed: its pet is pending.' },
  'order.approved': { readers, description: 'The shelter approved an order.' },
  'order.delivered': { readers, description: 'An adoption was completed: its pet is sold.' },
  'order.cancelled': {
    readers,
    description: 'An order was cancelled (`cancelReason` says why): its pet is available again.',
  },
});
