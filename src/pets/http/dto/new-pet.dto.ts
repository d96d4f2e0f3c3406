import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema, IntersectionType } from '@nestjs/swagger';
import { Nullable } from '../../../platform/http/request/presence';
import { ApiProfileInputModels, PetProfileInputDto } from './pet-profile.dto';
import { IsIn, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { IsText } from '../../../platform/http/request/text.validator';
import { EXTERNAL_ID, MAX_CATEGORY_ID, PET_NAME } from '../../domain/pet';
import { PET_STATUSES, PetStatus } from '../../domain/pet-status';

/** `externalId` as a client sends it (v1.4): text, or null for none. */
export const ExternalIdInput = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      nullable: true,
      minLength: EXTERNAL_ID.min,
      maxLength: EXTERNAL_ID.max,
      description:
        "The animal's id in the shelter's other system: 1 to 64 characters, unique among the organisation's animals (409 `already_exists` when another has it); `null` for none. Imports find animals by it; `GET /v1/pets?externalId=` too",
      example: 'A-1043',
    }),
    Nullable(),
    IsText(EXTERNAL_ID),
  );

/** The specification's members of `NewPet`, and `externalId` (v1.4). */
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

  @ExternalIdInput()
  externalId?: string | null;
}

/** The body of a create: the specification's `NewPet`, and any of the profile's members (v1.3). */
@ApiSchema({ name: 'NewPet' })
@ApiProfileInputModels()
export class NewPetDto extends IntersectionType(NewPetFieldsDto, PetProfileInputDto) {}
