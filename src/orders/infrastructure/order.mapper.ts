import { PetPayload } from '../../common/events/pet-payload';
import { isCancelReason, isOrderStatus, Order, OrderChange } from '../domain/order';
/** A row as the hot statements select it: bigints and instants as text. */
export interface OrderRow {
  id: string;
  petId: string;
  ownerKeyId: string;
  organizationId: string;
  status: string;
  placedAt: string;
  updatedAt: string;
  expiresAt: string | null;
  cancelReason: string | null;
}

/** A row of a statement that changes an order and its pet: the pet as the API answers it. */
export interface OrderChangeRow extends OrderRow {
  pet: PetPayload;
}

export const OrderMapper = {
  toChange(row: OrderChangeRow): OrderChange {
    const { pet, ...order } = row;
    return { order: OrderMapper.toDomain(order), pet };
  },

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
      organizationId: Number(row.organizationId),
      status: row.status,
      placedAt: row.placedAt,
      updatedAt: row.updatedAt,
      expiresAt: row.expiresAt,
      cancelReason: row.cancelReason,
    };
  },
};
