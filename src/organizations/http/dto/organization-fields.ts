import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsNumber, IsString, Matches, Max, Min } from 'class-validator';
import { DecimalNumber } from '../../../platform/http/request/decimal-number';
import { Given, Nullable } from '../../../platform/http/request/presence';
import { IsText } from '../../../platform/http/request/text.validator';
import { COUNTRY_CODES } from '../../../common/countries';
import { ORGANIZATION_TEXT } from '../../domain/organization';

type Text = keyof typeof ORGANIZATION_TEXT;

/**
 * How a member may be sent: `required` (a creation's: it must be there), `given` (a change's
 * required member: absent keeps it, null is refused), `nullable` (optional: null clears it).
 */
export type Presence = 'required' | 'given' | 'nullable';

const presence = (mode: Presence, path: string) =>
  mode === 'required'
    ? IsDefined({ message: `${path} is required` })
    : mode === 'given'
      ? Given()
      : Nullable();

/** A text member's rule and its document. */
export const TextMember = (
  field: Text,
  mode: Presence,
  description: string,
  example: string,
  path: string = field,
) =>
  applyDecorators(
    (mode === 'required' ? ApiProperty : ApiPropertyOptional)({
      // Stated: for `string | null` the document would say `object`.
      type: 'string',
      description,
      minLength: ORGANIZATION_TEXT[field].min,
      maxLength: ORGANIZATION_TEXT[field].max,
      nullable: mode === 'nullable',
      example,
    }),
    presence(mode, path),
    IsText(ORGANIZATION_TEXT[field]),
  );

export const EmailMember = (mode: Presence) =>
  applyDecorators(
    TextMember('email', mode, 'Where adopters write', 'adopt@harbour-rescue.example'),
    Matches(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, {
      message: 'email must be an address such as adopt@shelter.example',
    }),
  );

export const WebsiteMember = () =>
  applyDecorators(
    ApiPropertyOptional({
      description: 'An absolute https URL without credentials; answered as parsed',
      type: 'string',
      format: 'uri',
      nullable: true,
      maxLength: ORGANIZATION_TEXT.website.max,
      example: 'https://harbour-rescue.example/',
    }),
    Nullable(),
    IsText(ORGANIZATION_TEXT.website),
  );

export const PhoneMember = () =>
  applyDecorators(
    TextMember('phone', 'nullable', 'Digits, with an optional leading +', '+44 117 496 0000'),
    Matches(/^\+?[0-9][0-9 ().\-/]*[0-9]$/, {
      message: 'phone must be digits, with an optional leading + and separators between them',
    }),
  );

export const CountryMember = (mode: Presence) =>
  applyDecorators(
    (mode === 'required' ? ApiProperty : ApiPropertyOptional)({
      description: 'ISO 3166-1 alpha-2, in capitals',
      example: 'GB',
    }),
    presence(mode, 'address.country'),
    IsString({ message: 'address.country must be a string' }),
    IsIn([...COUNTRY_CODES], {
      message: 'address.country must be an ISO 3166-1 alpha-2 code in capitals, such as DE',
    }),
  );

export const CoordinateMember = (axis: 'lat' | 'lon', mode: Presence) => {
  const bound = axis === 'lat' ? 90 : 180;
  return applyDecorators(
    (mode === 'required' ? ApiProperty : ApiPropertyOptional)({
      type: 'number',
      minimum: -bound,
      maximum: bound,
      example: axis === 'lat' ? 51.4545 : -2.5879,
    }),
    presence(mode, `location.${axis}`),
    DecimalNumber(),
    IsNumber(
      { allowNaN: false, allowInfinity: false },
      { message: `location.${axis} must be a number` },
    ),
    Min(-bound, { message: `location.${axis} must be from -${bound} to ${bound}` }),
    Max(bound, { message: `location.${axis} must be from -${bound} to ${bound}` }),
  );
};
