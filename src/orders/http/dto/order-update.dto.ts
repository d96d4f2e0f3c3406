import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TARGET_STATUSES, TargetStatus } from '../../domain/order';

/** The body of updateOrder: the one property a client changes. */
@ApiSchema({ name: 'OrderUpdate' })
export class OrderUpdateDto {
  @ApiProperty({
    description:
      'The status to move to: `cancelled` with `orders:write` (own orders) or `orders:manage`; `approved` and `delivered` with `orders:manage`',
    enum: TARGET_STATUSES,
  })
  @IsIn(TARGET_STATUSES, { message: `status must be one of ${TARGET_STATUSES.join(', ')}` })
  status!: TargetStatus;
}
