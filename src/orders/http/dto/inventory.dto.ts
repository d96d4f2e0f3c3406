import { ApiProperty, ApiSchema } from '@nestjs/swagger';

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
