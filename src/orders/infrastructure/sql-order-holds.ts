import { Injectable } from '@nestjs/common';
import { PetPayload } from '../../pets/application/ports/pet-types';
import { AppConfig } from '../../platform/config/app-config';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { PetHolds } from '../../pets/application/ports/pet-holds';
import { OrderHold, OrderHolds } from '../application/ports/order-holds';
import { Order, orderPayload } from '../domain/order';
import { placeHeld } from './held-placement';
import { ORDER_COLUMNS, OrderMapper, OrderRow } from './order.mapper';

/** As a client's cancellation (updateOrder), only while the order is open. */
const CANCEL: SqlStatement = {
  name: 'orders_cancel_hold',
  text: `UPDATE orders SET status = 'cancelled', cancel_reason = 'requested', expires_at = NULL,
                updated_at = now()
          WHERE id = $1 AND status IN ('placed', 'approved') RETURNING ${ORDER_COLUMNS}`,
};

const holdOf = (order: Order, pet: PetPayload): OrderHold => ({
  orderId: order.id,
  owner: order.owner,
  organizationId: order.organizationId,
  order: orderPayload(order),
  pet,
});

@Injectable()
export class SqlOrderHolds extends OrderHolds {
  private readonly holdSeconds: number;

  constructor(
    private readonly sql: SqlStatements,
    private readonly pets: PetHolds,
    config: AppConfig,
  ) {
    super();
    this.holdSeconds = config.store.orderHoldSeconds;
  }

  placeFor(petId: number, keyId: string): Promise<OrderHold | null> {
    return this.sql.transaction(async () => {
      const { pet, order } = await placeHeld(this.sql, this.pets, {
        petId,
        owner: keyId,
        openOrderLimit: null,
        holdSeconds: this.holdSeconds,
      });
      // Without a cap, the order is refused only when the pet was not held.
      if (pet && !order) throw new Error(`Pet ${petId} was held without its order.`);
      return pet && order ? holdOf(order, pet) : null;
    });
  }

  cancel(orderId: number): Promise<OrderHold | null> {
    return this.sql.transaction(async () => {
      const [row] = await this.sql.query<OrderRow>(CANCEL, [orderId]);
      if (!row) return null;
      const order = OrderMapper.toDomain(row);
      const [pet] = await this.pets.release([order.petId]);
      return pet ? holdOf(order, pet) : null;
    });
  }
}
