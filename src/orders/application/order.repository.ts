import { CancelReason, Order, OrderChange, OrderId, OrderStatus } from '../domain/order';

export interface OrderPageQuery {
  /** This key's orders. */
  owner: string;
  /** ...and, when given, the orders for this organisation's pets too. */
  organization?: number;
  status?: OrderStatus;
  petId?: number;
  /** Only orders whose id is greater than this (keyset pagination). */
  after?: OrderId;
  limit: number;
}

/**
 * Port: where orders are kept, with the pets they hold. Each change of an order and its pet is one
 * transaction; "one open order per pet" holds under any concurrency.
 */
export abstract class OrderRepository {
  /**
   * Places an order for the pet if it is available, making it pending, and if the owner holds
   * fewer than `openOrderLimit` open orders, under any concurrency. Throws OpenOrderLimitError,
   * OrderedPetNotFoundError or PetNotAvailableError otherwise. Answers the order and its pet.
   */
  abstract place(petId: number, owner: string, openOrderLimit: number): Promise<OrderChange>;

  abstract findById(id: OrderId): Promise<Order | null>;

  /** Ascending id. */
  abstract findPage(query: OrderPageQuery): Promise<Order[]>;

  /**
   * Moves an order, and its pet with it: `decide` sees the order as it is, no other change of it
   * under way, and returns its next status or throws (then nothing changes). Answers the order
   * and its pet after the change; null: no such order.
   */
  abstract changeStatus(
    id: OrderId,
    decide: (current: Order) => OrderStatus,
  ): Promise<OrderChange | null>;

  /**
   * Cancels up to `batch` `placed` orders that lapsed for `reason` (`expired`: past their hold;
   * `key_revoked`: their key is revoked, or expired), freeing their pets in the same transaction; never one
   * that another call is cancelling. Returns the cancelled orders, each with its pet.
   */
  abstract cancelLapsed(reason: LapseReason, batch: number): Promise<OrderChange[]>;
}

/** Why a `placed` order is cancelled without a client asking. */
export type LapseReason = Exclude<CancelReason, 'requested'>;
