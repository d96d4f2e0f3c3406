import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { eventsOf, Order, OrderPlacer } from '../domain/order';
import { OrderRepository } from './order.repository';

export interface Placement {
  order: Order;
  /** True when this answers a retry: the order was placed by an earlier request. */
  replayed: boolean;
}

@Injectable()
export class PlaceOrder {
  constructor(
    private readonly orders: OrderRepository,
    private readonly idempotency: Idempotency,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  async execute(
    requester: OrderPlacer,
    petId: number,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<Placement> {
    checkScope(['orders:write'], requester.scopes);
    // The order, its pet and their events commit together; a replay places nothing, records nothing.
    const place = () =>
      this.transactions.run(async () => {
        const placed = await this.orders.place(petId, requester.keyId, requester.openOrderLimit);
        await this.events.record(eventsOf(placed));
        return placed.order;
      });
    if (!idempotencyKey) return { order: await place(), replayed: false };
    const { value, replayed } = await this.idempotency.once(
      { ...idempotencyKey, fingerprint: fingerprintOf(['placeOrder', petId]) },
      place,
    );
    // An order is plain JSON: a replay, as recorded, is the order as it was placed.
    return { order: value, replayed };
  }
}
