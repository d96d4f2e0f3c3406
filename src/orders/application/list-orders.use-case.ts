import { Injectable } from '@nestjs/common';
import { checkScope } from '../../common/scopes';
import { managedOrganization, Order, OrderId, OrderStatus, Requester } from '../domain/order';
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
    // Its own orders, and those of its organisation's pets if it manages them.
    const rows = await this.orders.findPage({
      owner: requester.keyId,
      organization: managedOrganization(requester) ?? undefined,
      status,
      petId,
      after,
      limit: limit + 1,
    });
    const { items: orders, nextAfter } = keysetPage(rows, limit);
    return { orders, nextAfter };
  }
}
