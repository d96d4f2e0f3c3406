import { Injectable } from '@nestjs/common';
import { Order } from '../domain/order';
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
  constructor(private readonly orders: OrderRepository) {}

  async execute(): Promise<Order[]> {
    const cancelled: Order[] = [];
    for (const reason of ['expired', 'key_revoked'] as LapseReason[]) {
      let batch: Order[];
      do {
        batch = await this.orders.cancelLapsed(reason, BATCH_SIZE);
        cancelled.push(...batch);
      } while (batch.length === BATCH_SIZE);
    }
    return cancelled;
  }
}
