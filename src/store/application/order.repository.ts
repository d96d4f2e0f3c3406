import { Order, OrderId, OrderStatus } from '../domain/order';

export interface OrderPageQuery {
  /** Only this key's orders; every key's when absent. */
  owner?: string;
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
   * Places an order for the pet if it is available, making it pending. Throws
   * OrderedPetNotFoundError or PetNotAvailableError otherwise.
   */
  abstract place(petId: number, owner: string): Promise<Order>;

  abstract findById(id: OrderId): Promise<Order | null>;

  /** Ascending id. */
  abstract findPage(query: OrderPageQuery): Promise<Order[]>;

  /**
   * Moves an order, and its pet with it: `decide` sees the order as it is, no other change of it
   * under way, and returns its next status or throws (then nothing changes). Null: no such order.
   */
  abstract changeStatus(
    id: OrderId,
    decide: (current: Order) => OrderStatus,
  ): Promise<Order | null>;
}
