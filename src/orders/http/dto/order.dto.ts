import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  CANCEL_REASONS,
  CancelReason,
  Order,
  ORDER_STATUSES,
  orderPayload,
  OrderStatus,
} from '../../domain/order';

/** An order as returned: the specification's `Order`. Whose it is stays on the server. */
@ApiSchema({ name: 'Order' })
export class OrderDto {
  @ApiProperty({ description: 'Assigned by the service', type: 'integer', format: 'int64' })
  id!: number;

  @ApiProperty({ description: 'The animal ordered', type: 'integer', format: 'int64' })
  petId!: number;

  @ApiProperty({
    description:
      '`placed → approved → delivered`, or `cancelled` from `placed` or `approved`; the animal is `pending` while the order is open, `sold` once delivered, `available` again once cancelled',
    enum: ORDER_STATUSES,
    enumName: 'OrderStatus',
  })
  status!: OrderStatus;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was placed (UTC)' })
  placedAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'Its last change (UTC)' })
  updatedAt!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'While `placed`: when the order lapses and is cancelled (`cancelReason: expired`), freeing the animal; null once approved or final',
  })
  expiresAt!: string | null;

  @ApiProperty({
    type: 'string',
    // Inline, null among the values: OpenAPI 3.0 cannot make a referenced enum nullable.
    enum: [...CANCEL_REASONS, null],
    nullable: true,
    description:
      'Why a cancelled order was cancelled: by a client (`requested`), past its hold (`expired`), or because its API key was revoked while it was placed (`key_revoked`); null unless cancelled',
  })
  cancelReason!: CancelReason | null;

  /** The same object an order's events carry. */
  static of(order: Order): OrderDto {
    return orderPayload(order);
  }
}
