import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { PageQueryDto } from '../../../platform/http/request/page-query.dto';
import { ORDER_STATUSES, OrderStatus } from '../../domain/order';

/** `limit`, `after`, and the status and pet to filter by. */
export class ListOrdersQueryDto extends PageQueryDto {
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
}
