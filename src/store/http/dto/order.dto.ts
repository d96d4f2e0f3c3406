import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Order, ORDER_STATUSES, OrderStatus } from '../../domain/order';

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

  static of({ id, petId, status, placedAt, updatedAt }: Order): OrderDto {
    return { id, petId, status, placedAt, updatedAt };
  }
}
