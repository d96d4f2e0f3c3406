import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import {
  eventsOf,
  isVisibleTo,
  mayMove,
  move,
  Order,
  OrderId,
  Requester,
  scopesToMoveTo,
  TargetStatus,
} from '../domain/order';
import { NotTheShelterError, OrderNotFoundError } from '../domain/order.errors';
import { OrderRepository } from './order.repository';

@Injectable()
export class UpdateOrder {
  constructor(
    private readonly orders: OrderRepository,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  async execute(requester: Requester, id: OrderId, to: TargetStatus): Promise<Order> {
    // Before the look-up: a 403 says nothing about whether the order exists.
    checkScope(scopesToMoveTo(to), requester.scopes);
    const moved = await this.transactions.run(async () => {
      const change = await this.orders.changeStatus(id, (order) => {
        if (!isVisibleTo(order, requester)) throw new OrderNotFoundError(id);
        if (!mayMove(order, requester, to)) throw new NotTheShelterError(id);
        return move(order, to);
      });
      if (change) await this.events.record(eventsOf(change));
      return change;
    });
    if (!moved) throw new OrderNotFoundError(id);
    return moved.order;
  }
}
