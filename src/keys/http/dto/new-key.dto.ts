import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { Scope, SCOPES } from '../../../common/scopes';
import { IsDateTime } from '../../../platform/http/request/date-time.validator';
import { IsText } from '../../../platform/http/request/text.validator';
import { MAX_ROLL_OVERLAP_SECONDS } from '../../domain/key';

/** The body of issueOrganizationKey: a key for a member of the organisation's staff. */
@ApiSchema({ name: 'NewKey' })
export class NewKeyDto {
  @ApiProperty({
    description: 'Who the key is for',
    minLength: 1,
    maxLength: 100,
    example: 'Front desk',
  })
  @IsDefined({ message: 'name is required' })
  @IsText({ min: 1, max: 100 })
  name!: string;

  @ApiProperty({
    enum: SCOPES,
    enumName: 'Scope',
    isArray: true,
    description: 'What it may do: scopes the calling key holds itself',
    example: ['pets:read', 'pets:write', 'pets:manage'],
  })
  @IsDefined({ message: 'scopes is required' })
  @IsArray({ message: 'scopes must be a list' })
  @ArrayNotEmpty({ message: 'scopes must name at least one scope' })
  @IsIn(SCOPES, { each: true, message: `scopes must each be one of ${SCOPES.join(', ')}` })
  @ArrayUnique({ message: 'scopes must not repeat a scope' })
  scopes!: Scope[];

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description:
      "From this instant it is refused: in the future, at most two years away, and no later than the calling key's own expiry (taken when not given)",
    example: '2027-06-30T00:00:00Z',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsDateTime()
  expiresAt?: string;
}

/** The body of rollKey. */
@ApiSchema({ name: 'KeyRoll' })
export class KeyRollDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: MAX_ROLL_OVERLAP_SECONDS,
    description:
      'How long the replaced secret keeps working, in seconds (0: not at all; at most a week)',
    example: 3600,
  })
  @IsDefined({ message: 'overlapSeconds is required' })
  @IsInt({ message: 'overlapSeconds must be an integer' })
  @Min(0, { message: `overlapSeconds must be from 0 to ${MAX_ROLL_OVERLAP_SECONDS}` })
  @Max(MAX_ROLL_OVERLAP_SECONDS, {
    message: `overlapSeconds must be from 0 to ${MAX_ROLL_OVERLAP_SECONDS}`,
  })
  overlapSeconds!: number;
}
