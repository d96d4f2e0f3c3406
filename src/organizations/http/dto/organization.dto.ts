import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { objectOrNull } from '../../../platform/http/response/object-or-null';
import { Organization, OrganizationNearby } from '../../domain/organization';
import { organizationAnswer } from './organization-answer';

@ApiSchema({ name: 'Address' })
export class AddressDto {
  @ApiProperty({ type: 'string', nullable: true, example: '12 Harbour Road' })
  line1!: string | null;

  @ApiProperty({ example: 'Bristol' })
  city!: string;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  region!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'BS1 5TY' })
  postalCode!: string | null;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2, in capitals', example: 'GB' })
  country!: string;
}

@ApiSchema({ name: 'GeoPoint' })
export class GeoPointDto {
  @ApiProperty({ type: 'number', minimum: -90, maximum: 90, example: 51.4545 })
  lat!: number;

  @ApiProperty({ type: 'number', minimum: -180, maximum: 180, example: -2.5879 })
  lon!: number;
}

/** A shelter as returned: every member always present, `null` when unknown. */
@ApiSchema({ name: 'Organization' })
@ApiExtraModels(AddressDto, GeoPointDto)
export class OrganizationDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 2, readOnly: true })
  id!: number;

  @ApiProperty({
    description: 'Unique, as names are compared ignoring case, width and invisible characters',
    example: 'Harbour Rescue',
  })
  name!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Where adopters write; null only for organisation 1 until its staff give it (it was created by the upgrade)',
    example: 'adopt@harbour-rescue.example',
  })
  email!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '+44 117 496 0000' })
  phone!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description: 'An https URL, as parsed',
    example: 'https://harbour-rescue.example/',
  })
  website!: string | null;

  @ApiProperty({
    ...objectOrNull(AddressDto),
    description: 'Null only for organisation 1 until its staff give it',
  })
  address!: AddressDto | null;

  @ApiProperty({
    ...objectOrNull(GeoPointDto),
    description: 'Where its animals can be met: what a `near` search measures from',
  })
  location!: GeoPointDto | null;

  @ApiProperty({
    description:
      'Whether `near` searches can find its animals: true when it has a `location`, false without one (a `near` search measures from it, and never lists the animals of an organisation without one). Set `location` to make it true',
    type: 'boolean',
    readOnly: true,
    example: true,
  })
  findableNearby!: boolean;

  @ApiProperty({ type: 'string', nullable: true, example: 'Home visits before every adoption.' })
  adoptionPolicy!: string | null;

  @ApiProperty({
    description: '+1 on every change; the `ETag` is `"<version>"`',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    readOnly: true,
  })
  version!: number;

  @ApiProperty({ type: 'string', format: 'date-time', readOnly: true })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', readOnly: true })
  updatedAt!: string;

  @ApiPropertyOptional({
    description: 'With `near` only: how far it is from the point, in kilometres (to 100 m)',
    type: 'number',
    readOnly: true,
    example: 12.4,
  })
  distanceKm?: number;

  /** The answer, members in the document's order. */
  static of(organization: Organization | OrganizationNearby): OrganizationDto {
    return organizationAnswer(organization);
  }
}
