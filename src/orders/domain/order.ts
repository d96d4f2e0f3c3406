import { NewEvent } from '../../common/events/event';
import { PET_EVENTS } from '../../common/events/pet-events';
import { ORDER_EVENTS } from './order.events';
import type { PetPayload, PetStatus } from '../../pets/application/ports/pet-types';
import { Scope } from '../../common/scopes';
import { InvalidTransitionError } from './order.errors';
import { Requester } from '../../common/requester';
import { isStaffOf } from '../../common/ownership';

/**
 * The statuses of an order, the adoption of one animal:
 * `placed → approved → delivered`, `placed → cancelled`, `approved → cancelled`.
 */
export const ORDER_STATUSES = ['placed', 'approved', 'delivered', 'cancelled'] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

export function isOrderStatus(value: unknown): value is OrderStatus {
  return (ORDER_STATUSES as readonly unknown[]).includes(value);
}

/** Where each status may go; `delivered` and `cancelled` are final. */
const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  placed: ['approved', 'cancelled'],
  approved: ['delivered', 'cancelled'],
  delivered: [],
  cancelled: [],
};

/** The statuses an order may be moved to by a client: every status but the first. */
export const TARGET_STATUSES = ['approved', 'delivered', 'cancelled'] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];

/** An order that still holds its pet: a pet has at most one. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['placed', 'approved'];

/** Only an available pet can be ordered. */
export const ORDERABLE_PET_STATUS: PetStatus = 'available';

/**
 * Why an order was cancelled: by a client (`requested`), because it stayed `placed` past its
 * `expiresAt` (`expired`), or because its key was revoked, or expired, while it was `placed`
 * (`key_revoked`).
 */
export const CANCEL_REASONS = ['requested', 'expired', 'key_revoked'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export function isCancelReason(value: unknown): value is CancelReason {
  return (CANCEL_REASONS as readonly unknown[]).includes(value);
}

/** An order's id: assigned by the database, within the integers every JSON client carries. */
export type OrderId = number;
export const MAX_ORDER_ID: OrderId = Number.MAX_SAFE_INTEGER;

export interface Order {
  readonly id: OrderId;
  readonly petId: number;
  /** The API key that placed it: that key sees it, as do the staff managing its pet's orders. */
  readonly owner: string;
  /** The organisation whose pet it is: its staff with `orders:manage` manage it. */
  readonly organizationId: number;
  readonly status: OrderStatus;
  /** Instants as RFC 3339 text in UTC, as they are answered: nothing here computes with them. */
  readonly placedAt: string;
  readonly updatedAt: string;
  /** Until when a `placed` order holds its pet; null once approved or final. */
  readonly expiresAt: string | null;
  /** Set when, and only when, the order is cancelled. */
  readonly cancelReason: CancelReason | null;
}

/** An order as the API answers it (GET /v1/store/orders/{orderId}): all but whose it is. */
export type OrderPayload = Omit<Order, 'owner' | 'organizationId'>;

export function orderPayload({
  id,
  petId,
  status,
  placedAt,
  updatedAt,
  expiresAt,
  cancelReason,
}: Order): OrderPayload {
  return { id, petId, status, placedAt, updatedAt, expiresAt, cancelReason };
}

/** A change of an order, with its pet as the same transaction left it: the pet follows its order. */
export interface OrderChange {
  readonly order: Order;
  readonly pet: PetPayload;
}

/**
 * What a change of an order records: the order's event (`order.<its status>`), readable by its
 * key and by the staff managing its pet's organisation's orders, then `pet.updated` when the
 * order moved its pet's status: every change but approval, which keeps the pet `pending`.
 */
export function eventsOf({ order, pet }: OrderChange): NewEvent[] {
  const organization = order.organizationId;
  const orderEvent: NewEvent = {
    type: ORDER_EVENTS[`order.${order.status}`],
    data: orderPayload(order),
    owner: order.owner,
    organization,
  };
  return order.status === 'approved'
    ? [orderEvent]
    : [orderEvent, { type: PET_EVENTS['pet.updated'], data: pet, organization }];
}

/**
 * The reason an order moved by a client's request records: a cancellation is `requested`; any
 * other move records none. (A move always leaves `placed`, so the order's hold ends with it.)
 */
export function cancelReasonOf(to: OrderStatus): CancelReason | null {
  return to === 'cancelled' ? 'requested' : null;
}

/** A requester placing an order, with the cap on open orders its plan gives it. */
export interface OrderPlacer extends Requester {
  readonly openOrderLimit: number;
}

/** Whether a key holding `open` open orders may place one more under `cap`. */
export function mayPlaceAnother(open: number, cap: number): boolean {
  return open < cap;
}

/** The pet follows its order, in the same transaction. */
export function petStatusFor(status: OrderStatus): PetStatus {
  switch (status) {
    case 'placed':
    case 'approved':
      return 'pending';
    case 'delivered':
      return 'sold';
    case 'cancelled':
      return 'available';
  }
}

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

/** The status an order moves to, or the error saying why it cannot. */
export function move(order: Pick<Order, 'id' | 'status'>, to: OrderStatus): OrderStatus {
  if (!canMove(order.status, to)) throw new InvalidTransitionError(order.id, order.status, to);
  return to;
}

/**
 * The scopes that each allow moving an order to `to`: a client cancels its own order; approving
 * and delivering are the shelter's (`orders:manage`), which may also cancel the orders of its pets.
 */
export function scopesToMoveTo(to: TargetStatus): readonly Scope[] {
  return to === 'cancelled' ? ['orders:write', 'orders:manage'] : ['orders:manage'];
}

/** Moved to the shared kernel, where every feature finds it; re-exported for the store's code. */
export type { Requester } from '../../common/requester';

/**
 * The organisation whose pets' orders a requester manages: its own, with `orders:manage`. A key
 * without an organisation manages none, whatever its scopes.
 */
export function managedOrganization(requester: Requester): number | null {
  return requester.scopes.includes('orders:manage') ? requester.organizationId : null;
}

/** Whether the requester manages the orders of `organizationId`'s pets: its staff, with `orders:manage`. */
function managesOrdersOf(requester: Requester, organizationId: number): boolean {
  return requester.scopes.includes('orders:manage') && isStaffOf(requester, organizationId);
}

/**
 * Whether a requester may move the order to `to`: the staff managing its pet's organisation's
 * orders to any status; its own key only to `cancelled` (approving and delivering are the
 * shelter's, even for a key that manages another organisation's orders).
 */
export function mayMove(
  order: Pick<Order, 'organizationId'>,
  requester: Requester,
  to: TargetStatus,
): boolean {
  return to === 'cancelled' || managesOrdersOf(requester, order.organizationId);
}

/**
 * An order exists for a requester only if it is theirs, or they manage the orders of its pet's
 * organisation: another's is a 404, as if it did not exist.
 */
export function isVisibleTo(
  order: Pick<Order, 'owner' | 'organizationId'>,
  requester: Requester,
): boolean {
  return order.owner === requester.keyId || managesOrdersOf(requester, order.organizationId);
}
