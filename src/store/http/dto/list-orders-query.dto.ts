import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../application/list-orders.use-case';
import { ORDER_STATUSES, OrderStatus } from '../../domain/order';

/** Query values arrive as strings; they are checked as text so nothing is coerced or rounded. */
export class ListOrdersQueryDto {
  @ApiPropertyOptional({
    description: 'Maximum number of orders to return',
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
  })
  @IsOptional()
  @IsString({ message: 'limit must be given once' })
  @Matches(/^(100|[1-9][0-9]?)$/, {
    message: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`,
  })
  limit?: string;

  @ApiPropertyOptional({
    description: 'Only orders with this status',
    enum: ORDER_STATUSES,
    enumName: 'OrderStatus',
  })
  @IsOptional()
  @IsString({ message: 'status must be given once' })
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;

  @ApiPropertyOptional({
    description: 'Only orders of this animal',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsOptional()
  @IsString({ message: 'petId must be given once' })
  @IsInt64Text(1n)
  petId?: string;

  @ApiPropertyOptional({
    description: 'Return only orders whose id is greater than this (the `next` link sets it)',
    type: 'integer',
    format: 'int64',
    minimum: 0,
  })
  @IsOptional()
  @IsString({ message: 'after must be given once' })
  @IsInt64Text(0n)
  after?: string;
}
