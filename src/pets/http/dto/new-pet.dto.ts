import { ApiProperty, ApiPropertyOptional, ApiSchema, IntersectionType } from '@nestjs/swagger';
import { ApiProfileInputModels, PetProfileInputDto } from './pet-profile.dto';
import { IsIn, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { IsText } from '../../../platform/http/request/text.validator';
import { MAX_CATEGORY_ID, PET_NAME } from '../../domain/pet';
import { PET_STATUSES, PetStatus } from '../../../common/pet-status';

/** The specification's members of `NewPet`. */
class NewPetFieldsDto {
  @ApiProperty({
    description:
      "The animal's name: 1 to 100 characters (Unicode code points), not only white space",
    minLength: PET_NAME.min,
    maxLength: PET_NAME.max,
    example: 'Rex',
  })
  @IsText(PET_NAME)
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
    // No `default`: generated clients would make the property required (README, "Typed client").
    description: 'Availability of the animal; `available` when omitted',
    enum: PET_STATUSES,
    enumName: 'PetStatus',
  })
  // Only an absent status takes the default: null is refused, not treated as absent.
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status?: PetStatus;
}

/** The body of a create: the specification's `NewPet`, and any of the profile's members (v1.3). */
@ApiSchema({ name: 'NewPet' })
@ApiProfileInputModels()
export class NewPetDto extends IntersectionType(NewPetFieldsDto, PetProfileInputDto) {}
