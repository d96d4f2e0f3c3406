import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { MAX_ORDER_ID, OrderId } from '../../domain/order';
import { OrderNotFoundError } from '../../domain/order.errors';

/** The path of an order: an integer from 1 to 2^63 - 1, as text, never rounded. */
export class OrderIdParamsDto {
  @ApiProperty({
    description: 'Identifier of the order',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  orderId!: string;
}

/** The order id a valid path names. Above 2^53 - 1 no order can have it: a 404, as written. */
export function orderIdOf({ orderId }: OrderIdParamsDto): OrderId {
  if (BigInt(orderId) > BigInt(MAX_ORDER_ID)) throw new OrderNotFoundError(orderId);
  return Number(orderId);
}
