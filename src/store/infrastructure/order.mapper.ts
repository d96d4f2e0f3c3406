import { isCancelReason, isOrderStatus, Order } from '../domain/order';
/** A row as the hot statements select it: bigints and instants as text. */
export interface OrderRow {
  id: string;
  petId: string;
  ownerKeyId: string;
  status: string;
  placedAt: string;
  updatedAt: string;
  expiresAt: string | null;
  cancelReason: string | null;
}

export const OrderMapper = {
  toDomain(row: OrderRow): Order {
    if (!isOrderStatus(row.status)) {
      throw new Error(`Stored order ${row.id} has an unknown status.`);
    }
    if (row.cancelReason !== null && !isCancelReason(row.cancelReason)) {
      throw new Error(`Stored order ${row.id} has an unknown cancel reason.`);
    }
    return {
      id: Number(row.id),
      petId: Number(row.petId),
      owner: row.ownerKeyId,
      status: row.status,
      placedAt: row.placedAt,
      updatedAt: row.updatedAt,
      expiresAt: row.expiresAt,
      cancelReason: row.cancelReason,
    };
  },
};
