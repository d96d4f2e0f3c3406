import { sqlInstant } from '../../platform/database/sql-instant';
import { isCancelReason, isOrderStatus, Order } from '../domain/order';

/** An order's columns as the statements select them (OrderRow). */
export const ORDER_COLUMNS = `id, pet_id AS "petId", owner_key_id AS "ownerKeyId",
  organization_id AS "organizationId", status,
  ${sqlInstant('placed_at')} AS "placedAt", ${sqlInstant('updated_at')} AS "updatedAt",
  ${sqlInstant('expires_at')} AS "expiresAt", cancel_reason AS "cancelReason"`;

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
      organizationId: Number(row.organizationId),
      status: row.status,
      placedAt: row.placedAt,
      updatedAt: row.updatedAt,
      expiresAt: row.expiresAt,
      cancelReason: row.cancelReason,
    };
  },
};
