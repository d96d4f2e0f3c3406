import { isOrderStatus, Order } from '../domain/order';
import { OrderOrmEntity } from './order.orm-entity';

export const OrderMapper = {
  toDomain(row: OrderOrmEntity): Order {
    if (!isOrderStatus(row.status)) {
      throw new Error(`Stored order ${row.id} has an unknown status.`);
    }
    return {
      id: Number(row.id),
      petId: Number(row.petId),
      owner: row.ownerKeyId,
      status: row.status,
      placedAt: row.placedAt,
      updatedAt: row.updatedAt,
    };
  },
};
