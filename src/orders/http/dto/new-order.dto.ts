import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

/** Largest pet id there can be: 2^53 - 1, as for every id and number the API carries. */
const MAX_PET_ID = Number.MAX_SAFE_INTEGER;

/** The body of placeOrder: the specification's `NewOrder`. */
@ApiSchema({ name: 'NewOrder' })
export class NewOrderDto {
  @ApiProperty({
    description: 'The animal to adopt; it must be `available`',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_PET_ID,
    example: 1,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_PET_ID)
  petId!: number;
}
