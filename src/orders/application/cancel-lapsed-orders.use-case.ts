import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Transactions } from '../../common/transactions';
import { eventsOf, Order, OrderChange } from '../domain/order';
import { LapseReason, OrderRepository } from './order.repository';

/** Orders cancelled per statement: each is short, and no connection is held between batches. */
const BATCH_SIZE = 500;

/**
 * Cancels every `placed` order that lapsed (docs/adr/0022): past its hold (`expired`), or of a
 * revoked key (`key_revoked`), freeing the pets. Any number of instances may run it at once: an
 * order is cancelled by exactly one. Returns the cancelled orders.
 */
@Injectable()
export class CancelLapsedOrders {
  constructor(
    private readonly orders: OrderRepository,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  async execute(): Promise<Order[]> {
    const cancelled: Order[] = [];
    for (const reason of ['expired', 'key_revoked'] as LapseReason[]) {
      let batch: OrderChange[];
      do {
        // Each batch and its `order.cancelled` and `pet.updated` events commit together.
        batch = await this.transactions.run(async () => {
          const changes = await this.orders.cancelLapsed(reason, BATCH_SIZE);
          await this.events.record(changes.flatMap(eventsOf));
          return changes;
        });
        cancelled.push(...batch.map(({ order }) => order));
      } while (batch.length === BATCH_SIZE);
    }
    return cancelled;
  }
}
