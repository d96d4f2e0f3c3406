import { ApiExtraModels, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import {
  CoordinateMember,
  CountryMember,
  EmailMember,
  PhoneMember,
  TextMember,
  WebsiteMember,
} from './organization-fields';
import { Given, Nullable } from '../../../platform/http/request/presence';
import { objectOrNull } from '../../../platform/http/response/object-or-null';

/** A change of the address: its members merge with those it has. */
@ApiSchema({ name: 'AddressUpdate' })
export class AddressUpdateDto {
  @TextMember(
    'line1',
    'nullable',
    'First line of the street address',
    '12 Harbour Road',
    'address.line1',
  )
  line1?: string | null;

  @TextMember('city', 'given', 'City (it cannot be removed)', 'Bristol', 'address.city')
  city?: string;

  @TextMember('region', 'nullable', 'Region, state or county', 'Avon', 'address.region')
  region?: string | null;

  @TextMember('postalCode', 'nullable', 'Postal code', 'BS1 5TY', 'address.postalCode')
  postalCode?: string | null;

  @CountryMember('given')
  country?: string;
}

/** A change of the location: `lat` and `lon` merge with those it has. */
@ApiSchema({ name: 'GeoPointUpdate' })
export class GeoPointUpdateDto {
  @CoordinateMember('lat', 'given')
  lat?: number;

  @CoordinateMember('lon', 'given')
  lon?: number;
}

/**
 * The body of updateOrganization (RFC 7396): absent members are kept; `null` clears an optional
 * member and is refused for `name`, `email` and `address`; `address` and `location` merge member
 * by member.
 */
@ApiSchema({ name: 'OrganizationUpdate' })
@ApiExtraModels(GeoPointUpdateDto)
export class OrganizationUpdateDto {
  @TextMember('name', 'given', 'Unique among organisations', 'Harbour Rescue')
  name?: string;

  @EmailMember('given')
  email?: string;

  @PhoneMember()
  phone?: string | null;

  @WebsiteMember()
  website?: string | null;

  @ApiPropertyOptional({ type: AddressUpdateDto })
  @Given()
  @IsObject({ message: 'address must be an object' })
  @ValidateNested()
  @Type(() => AddressUpdateDto)
  address?: AddressUpdateDto;

  @ApiPropertyOptional(objectOrNull(GeoPointUpdateDto))
  @Nullable()
  @IsObject({ message: 'location must be an object or null' })
  @ValidateNested()
  @Type(() => GeoPointUpdateDto)
  location?: GeoPointUpdateDto | null;

  @TextMember(
    'adoptionPolicy',
    'nullable',
    'What adopters should know, up to 5,000 characters',
    'Home visits before every adoption.',
  )
  adoptionPolicy?: string | null;
}
