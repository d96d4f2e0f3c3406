import { Injectable } from '@nestjs/common';
import { checkScope } from '../../common/scopes';
import { isVisibleTo, Order, OrderId, Requester } from '../domain/order';
import { OrderNotFoundError } from '../domain/order.errors';
import { OrderRepository } from './order.repository';

@Injectable()
export class GetOrder {
  constructor(private readonly orders: OrderRepository) {}

  async execute(requester: Requester, id: OrderId): Promise<Order> {
    checkScope(['orders:read', 'orders:manage'], requester.scopes);
    const order = await this.orders.findById(id);
    // Another key's order does not exist for this one: the same 404 as an order that never did.
    if (!order || !isVisibleTo(order, requester)) throw new OrderNotFoundError(id);
    return order;
  }
}
