import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PLANS, Plan } from '@pet-adoption/api-keys';
import { Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Scope, SCOPES } from '../../../common/scopes';
import { IsDateTime } from '../../../platform/http/request/date-time.validator';
import { IsText } from '../../../platform/http/request/text.validator';

@ApiSchema({ name: 'RateLimits' })
export class RateLimitsDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 5000 })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  perMinute!: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1_000_000 })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  perDay!: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 500,
    description:
      'Orders the key may hold open (placed or approved) at once. On issue: enterprise keys only, ' +
      'default 500. Always shown in answers: free 5, pro 50, business 500.',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  openOrders?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 50,
    description:
      'Webhook endpoints the key may have at once. On issue: enterprise keys only, default 50. ' +
      'Always shown in answers: free 3, pro 10, business 50.',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  webhookEndpoints?: number;
}

@ApiSchema({ name: 'NewApiKey' })
export class IssueApiKeyDto {
  @ApiProperty({
    description: 'Who the key is for',
    minLength: 1,
    maxLength: 100,
    example: 'Acme shop',
  })
  @IsText({ min: 1, max: 100 })
  name!: string;

  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  @IsIn(PLANS, { message: `plan must be one of ${PLANS.join(', ')}` })
  plan!: Plan;

  @ApiPropertyOptional({
    type: RateLimitsDto,
    description: 'Required for enterprise keys, refused for the others',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitsDto)
  limits?: RateLimitsDto;

  @ApiPropertyOptional({
    enum: SCOPES,
    enumName: 'Scope',
    isArray: true,
    description:
      'What the key may do; without it `pets:read`, `pets:write`, `orders:read`, `orders:write`',
    example: ['pets:read', 'orders:read', 'orders:write'],
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsArray()
  @ArrayNotEmpty({ message: 'scopes must name at least one scope' })
  @IsIn(SCOPES, { each: true, message: `scopes must each be one of ${SCOPES.join(', ')}` })
  @ArrayUnique({ message: 'scopes must not repeat a scope' })
  scopes?: Scope[];

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    description:
      "The organisation whose staff the key is (`POST /admin/organizations`); none for an adopter's or an integrator's key",
    example: 2,
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsInt({ message: 'organizationId must be an integer' })
  @Min(1, { message: 'organizationId must be from 1 to 9007199254740991' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'organizationId must be from 1 to 9007199254740991' })
  organizationId?: number;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'From this instant the key is refused: in the future, at most two years away',
    example: '2027-06-30T00:00:00Z',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsDateTime()
  expiresAt?: string;
}
