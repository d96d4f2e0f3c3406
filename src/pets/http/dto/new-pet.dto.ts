import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { MAX_CATEGORY_ID, PET_NAME_MAX_LENGTH } from '../../domain/pet';
import { PET_STATUSES, PetStatus } from '../../domain/pet-status';

export class NewPetDto {
  @ApiProperty({
    description: "The animal's name",
    minLength: 1,
    maxLength: PET_NAME_MAX_LENGTH,
    example: 'Rex',
  })
  @IsString()
  @Length(1, PET_NAME_MAX_LENGTH)
  @Matches(/\S/, { message: 'name must not be only white space' })
  name!: string;

  @ApiProperty({
    description: 'Identifier of the category the animal belongs to',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_CATEGORY_ID,
    example: 1,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_CATEGORY_ID)
  categoryId!: number;

  @ApiPropertyOptional({
    description: 'Availability of the animal; available when omitted',
    enum: PET_STATUSES,
    enumName: 'PetStatus',
    default: 'available',
  })
  // Only an absent status takes the default: null is refused, not treated as absent.
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status?: PetStatus;
}
