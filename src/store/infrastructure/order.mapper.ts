import { isOrderStatus, Order } from '../domain/order';
/** A row as the hot statements select it: bigints and instants as text. */
export interface OrderRow {
  id: string;
  petId: string;
  ownerKeyId: string;
  status: string;
  placedAt: string;
  updatedAt: string;
}

export const OrderMapper = {
  toDomain(row: OrderRow): Order {
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
