import { ApiProperty, ApiPropertyOptional, ApiSchema, IntersectionType } from '@nestjs/swagger';
import { PetProfileDto } from './pet-profile.dto';
import { PetPhoto } from '../../domain/pet-photo';
import { PET_STATUSES, PetStatus } from '../../domain/pet-status';

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

  @ApiProperty({
    description:
      "The animal's id in the shelter's other system (v1.4), unique among the organisation's animals; `null` when not given",
    type: 'string',
    nullable: true,
    example: 'A-1043',
  })
  externalId!: string | null;
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

/** What an adopter sees of an animal. */
class PetPhotosDto {
  @ApiProperty({
    description:
      'Read-only: its photos by `position`, the first the primary (`POST /v1/pets/{petId}/photos` adds one); `[]` when it has none',
    type: 'array',
    // The photos feature's schema, named rather than imported: no feature imports another.
    items: { $ref: '#/components/schemas/Photo' },
    maxItems: 12,
    readOnly: true,
  })
  photos!: PetPhoto[];

  @ApiPropertyOptional({
    description:
      "With `near` only: how far the animal's organisation is from the point, in kilometres (to 100 m)",
    type: 'number',
    readOnly: true,
    example: 12.4,
  })
  distanceKm?: number;

  @ApiPropertyOptional({
    description:
      "Read-only (v1.4), to the staff of the animal's organisation holding `applications:manage` only: how many of its applications are open (`submitted`, `under_review`, `approved`); absent to everyone else",
    type: 'integer',
    format: 'int32',
    minimum: 0,
    readOnly: true,
    example: 2,
  })
  openApplications?: number;
}

/** An animal as returned: the specification's `Pet`, with its profile and photos (v1.3). */
@ApiSchema({ name: 'Pet' })
export class PetDto extends IntersectionType(
  PetIdentityDto,
  PetProfileDto,
  PetPhotosDto,
  PetVersionDto,
) {}
