import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import {
  CoordinateMember,
  CountryMember,
  EmailMember,
  PhoneMember,
  TextMember,
  WebsiteMember,
} from './organization-fields';
import { Nullable } from '../../../platform/http/request/presence';

@ApiSchema({ name: 'NewAddress' })
export class NewAddressDto {
  @TextMember(
    'line1',
    'nullable',
    'First line of the street address',
    '12 Harbour Road',
    'address.line1',
  )
  line1?: string | null;

  @TextMember('city', 'required', 'City', 'Bristol', 'address.city')
  city!: string;

  @TextMember('region', 'nullable', 'Region, state or county', 'Avon', 'address.region')
  region?: string | null;

  @TextMember('postalCode', 'nullable', 'Postal code', 'BS1 5TY', 'address.postalCode')
  postalCode?: string | null;

  @CountryMember('required')
  country!: string;
}

@ApiSchema({ name: 'NewGeoPoint' })
export class NewGeoPointDto {
  @CoordinateMember('lat', 'required')
  lat!: number;

  @CoordinateMember('lon', 'required')
  lon!: number;
}

/** The body of createOrganization (admin API): a shelter to onboard. */
@ApiSchema({ name: 'NewOrganization' })
export class NewOrganizationDto {
  @TextMember('name', 'required', 'Unique among organisations', 'Harbour Rescue')
  name!: string;

  @EmailMember('required')
  email!: string;

  @PhoneMember()
  phone?: string | null;

  @WebsiteMember()
  website?: string | null;

  @ApiProperty({ type: NewAddressDto })
  @IsDefined({ message: 'address is required' })
  @IsObject({ message: 'address must be an object' })
  @ValidateNested()
  @Type(() => NewAddressDto)
  address!: NewAddressDto;

  @ApiPropertyOptional({ type: NewGeoPointDto, nullable: true })
  @Nullable()
  @IsObject({ message: 'location must be an object or null' })
  @ValidateNested()
  @Type(() => NewGeoPointDto)
  location?: NewGeoPointDto | null;

  @TextMember(
    'adoptionPolicy',
    'nullable',
    'What adopters should know, up to 5,000 characters',
    'Home visits before every adoption.',
  )
  adoptionPolicy?: string | null;
}
