import { Injectable } from '@nestjs/common';
import { checkScope } from '../../common/scopes';
import { managesOrders, Order, OrderId, OrderStatus, Requester } from '../domain/order';
import { DEFAULT_PAGE_SIZE, keysetPage } from '../../common/paging';
import { OrderRepository } from './order.repository';

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
    const rows = await this.orders.findPage({ owner, status, petId, after, limit: limit + 1 });
    const { items: orders, nextAfter } = keysetPage(rows, limit);
    return { orders, nextAfter };
  }
}
