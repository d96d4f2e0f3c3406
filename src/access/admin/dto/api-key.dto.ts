import { ApiProperty, PickType, ApiSchema } from '@nestjs/swagger';
import { PLANS, Plan } from '@pet-adoption/api-keys';
import { Scope, SCOPES } from '../../../common/scopes';
import { RateLimitsDto } from './issue-api-key.dto';

@ApiSchema({ name: 'ApiKey' })
export class ApiKeyDto {
  @ApiProperty({ type: 'integer', format: 'int64' })
  id!: number;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  plan!: Plan;

  @ApiProperty({ type: RateLimitsDto })
  limits!: RateLimitsDto;

  @ApiProperty({ enum: SCOPES, enumName: 'Scope', isArray: true })
  scopes!: Scope[];

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description: 'The organisation whose staff the key is; null for adopters and integrators',
  })
  organizationId!: number | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'From this instant the key is refused (401); null: it never expires',
  })
  expiresAt!: string | null;

  @ApiProperty({
    description: 'The first characters of the key, to recognise it',
    example: 'pet_live_AbCd',
  })
  prefix!: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revokedAt!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  lastUsedAt!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Until when the secret the last roll replaced still works; null when none does',
  })
  previousSecretValidUntil!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'End of a temporary ban',
  })
  bannedUntil!: string | null;
}

@ApiSchema({ name: 'IssuedApiKey' })
export class IssuedApiKeyDto extends PickType(ApiKeyDto, [
  'id',
  'name',
  'plan',
  'limits',
  'scopes',
  'organizationId',
  'expiresAt',
  'prefix',
  'createdAt',
] as const) {
  @ApiProperty({ description: 'The key itself. Shown this once only: store it now.' })
  key!: string;
}
