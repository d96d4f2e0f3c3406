import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';

const Count = (status: string) =>
  ApiProperty({ description: `Animals ${status}`, type: 'integer', format: 'int64', minimum: 0 });

/** Exact counts of animals by status: the specification's `Inventory`. */
@ApiSchema({ name: 'Inventory' })
export class InventoryDto {
  @Count('available')
  available!: number;

  @Count('pending (an open order holds them)')
  pending!: number;

  @Count('sold')
  sold!: number;
}

/** `organizationId` (v1.4): one organisation's animals only. */
export class InventoryQueryDto {
  @ApiPropertyOptional({
    description:
      "Only this organisation's animals (v1.4); an organisation that has none, or that does not exist, counts zeros",
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
  })
  @IsOptional()
  @IsString({ message: 'organizationId must be given once' })
  @IsInt64Text(1n, BigInt(Number.MAX_SAFE_INTEGER))
  organizationId?: string;
}
