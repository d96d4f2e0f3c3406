import { Injectable } from '@nestjs/common';
import { checkScope } from '../../common/scopes';
import { managesOrders, Order, OrderId, OrderStatus, Requester } from '../domain/order';
import { OrderRepository } from './order.repository';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ListOrdersQuery {
  status?: OrderStatus;
  petId?: number;
  after?: OrderId;
  limit?: number;
}

export interface OrderPage {
  orders: Order[];
  /** Id to pass as `after` for the next page, or null when this page is the last. */
  nextAfter: OrderId | null;
}

@Injectable()
export class ListOrders {
  constructor(private readonly orders: OrderRepository) {}

  async execute(
    requester: Requester,
    { status, petId, after, limit = DEFAULT_PAGE_SIZE }: ListOrdersQuery,
  ): Promise<OrderPage> {
    checkScope(['orders:read', 'orders:manage'], requester.scopes);
    const owner = managesOrders(requester) ? undefined : requester.keyId;
    // One extra row tells whether another page exists without a count query.
    const rows = await this.orders.findPage({ owner, status, petId, after, limit: limit + 1 });
    const orders = rows.slice(0, limit);
    const nextAfter = rows.length > limit ? orders[orders.length - 1].id : null;
    return { orders, nextAfter };
  }
}
