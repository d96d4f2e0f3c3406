import { ApiProperty, ApiSchema, IntersectionType } from '@nestjs/swagger';
import { PetProfileDto } from './pet-profile.dto';
import { PET_STATUSES, PetStatus } from '../../../common/pet-status';

/** What names an animal and says whose it is. */
class PetIdentityDto {
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
    description: 'Identifier of the category (`GET /v1/categories` names them)',
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

  @ApiProperty({
    description:
      'Read-only: the organisation that owns the animal (`GET /v1/organizations/{id}`): its staff alone change it. ' +
      'A key without an organisation creates animals in organisation 1.',
    type: 'integer',
    format: 'int64',
    readOnly: true,
    example: 1,
  })
  organizationId!: number;
}

/** What the service keeps of an animal's changes. */
class PetVersionDto {
  @ApiProperty({
    description:
      'Read-only: 1 when created, +1 on every change of the animal (by a client or by an order); its `ETag` is `"<version>"`',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    readOnly: true,
    example: 1,
  })
  version!: number;

  @ApiProperty({
    description: 'Read-only: when the animal was added (UTC)',
    type: 'string',
    format: 'date-time',
    readOnly: true,
  })
  createdAt!: string;

  @ApiProperty({
    description: 'Read-only: its last change (UTC); moves with `version`',
    type: 'string',
    format: 'date-time',
    readOnly: true,
  })
  updatedAt!: string;
}

/** An animal as returned: the specification's `Pet`, with its profile (v1.3). */
@ApiSchema({ name: 'Pet' })
export class PetDto extends IntersectionType(PetIdentityDto, PetProfileDto, PetVersionDto) {}
