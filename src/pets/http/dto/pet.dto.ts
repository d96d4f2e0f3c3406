import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PET_STATUSES, PetStatus } from '../../../common/pet-status';

/** An animal as returned: the specification's `Pet`. */
@ApiSchema({ name: 'Pet' })
export class PetDto {
  @ApiProperty({
    description: 'Unique identifier assigned by the service',
    type: 'integer',
    format: 'int64',
    example: 1,
  })
  id!: number;

  @ApiProperty({ description: "The animal's name", example: 'Rex' })
  name!: string;

  @ApiProperty({
    description: 'Identifier of the category',
    type: 'integer',
    format: 'int64',
    example: 1,
  })
  categoryId!: number;

  @ApiProperty({
    description: 'Availability of the animal',
    enum: PET_STATUSES,
    enumName: 'PetStatus',
  })
  status!: PetStatus;
}
