import { ApiPropertyOptional, ApiSchema, IntersectionType } from '@nestjs/swagger';
import { ApiProfileInputModels, PetProfileInputDto } from './pet-profile.dto';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { Given } from '../../../platform/http/request/presence';
import { IsText } from '../../../platform/http/request/text.validator';
import { PET_STATUSES, PetStatus } from '../../domain/pet-status';
import { MAX_CATEGORY_ID, PET_NAME } from '../../domain/pet';
import { ExternalIdInput } from './new-pet.dto';

/** The fields of an animal a change gives: each as on a create; null is refused. */
class PetFieldsUpdateDto {
  @ApiPropertyOptional({
    description: 'A new name: 1 to 100 characters (Unicode code points), not only white space',
    minLength: PET_NAME.min,
    maxLength: PET_NAME.max,
    example: 'Rex',
  })
  @Given()
  @IsText(PET_NAME)
  name?: string;

  @ApiPropertyOptional({
    description: 'Another category; one no category has yet is created, unnamed',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_CATEGORY_ID,
    example: 2,
  })
  @Given()
  @IsInt()
  @Min(1)
  @Max(MAX_CATEGORY_ID)
  categoryId?: number;

  @ApiPropertyOptional({
    description:
      'Availability set by hand (`pending`: on hold, it cannot be ordered); refused with 409 `pet_has_open_order` while an open order holds the animal',
    enum: PET_STATUSES,
    enumName: 'PetStatus',
  })
  @Given()
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status?: PetStatus;

  @ExternalIdInput()
  externalId?: string | null;
}

/**
 * The body of updatePet (RFC 7396): the fields to change, each as on a create; absent ones are
 * kept; null is refused for a field (every field of an animal is required) and makes a profile
 * member unknown again; `breed`, `attributes` and `environment` merge member by member; `{}`
 * changes nothing.
 */
@ApiSchema({ name: 'PetUpdate' })
@ApiProfileInputModels()
export class PetUpdateDto extends IntersectionType(PetFieldsUpdateDto, PetProfileInputDto) {}
