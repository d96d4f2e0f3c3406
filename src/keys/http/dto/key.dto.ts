import { ApiProperty, ApiPropertyOptional, ApiSchema, PickType } from '@nestjs/swagger';
import { Scope, SCOPES } from '../../../common/scopes';
import { Key } from '../../domain/key';

@ApiSchema({ name: 'KeyLimits' })
export class KeyLimitsDto {
  @ApiProperty({ type: 'integer', example: 300 })
  perMinute!: number;

  @ApiProperty({ type: 'integer', example: 10000 })
  perDay!: number;

  @ApiProperty({ type: 'integer', description: 'Orders it may hold open at once', example: 50 })
  openOrders!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Webhook endpoints it may have at once',
    example: 10,
  })
  webhookEndpoints!: number;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** An API key as its organisation's staff see it: never its secret. */
@ApiSchema({ name: 'Key' })
export class KeyDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 12 })
  id!: number;

  @ApiProperty({ example: 'Front desk' })
  name!: string;

  @ApiProperty({ enum: ['free', 'pro', 'business', 'enterprise'], example: 'pro' })
  plan!: string;

  @ApiProperty({ type: KeyLimitsDto })
  limits!: KeyLimitsDto;

  @ApiProperty({ enum: SCOPES, enumName: 'Scope', isArray: true })
  scopes!: Scope[];

  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, example: 2 })
  organizationId!: number | null;

  @ApiProperty({ description: 'The first characters of its secret', example: 'pet_live_AbCd' })
  prefix!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  expiresAt!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Until when the secret the last roll replaced still works; null when none does',
  })
  previousSecretValidUntil!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revokedAt!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  lastUsedAt!: string | null;

  static of(key: Key): KeyDto {
    return {
      id: Number(key.id),
      name: key.name,
      plan: key.plan,
      limits: key.limits,
      scopes: key.scopes as Scope[],
      organizationId: key.organizationId,
      prefix: key.prefix,
      expiresAt: iso(key.expiresAt),
      previousSecretValidUntil: iso(key.previousSecretValidUntil),
      createdAt: key.createdAt.toISOString(),
      revokedAt: iso(key.revokedAt),
      lastUsedAt: iso(key.lastUsedAt),
    };
  }
}

/** A key as issued or rolled: with its secret, shown this once. */
@ApiSchema({ name: 'KeyWithSecret' })
export class KeyWithSecretDto extends KeyDto {
  @ApiProperty({
    description: 'The key itself. Shown this once only: store it now.',
    example: 'pet_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE',
  })
  key!: string;
}

@ApiSchema({ name: 'KeyWindowUsage' })
export class WindowUsageDto {
  @ApiProperty({ type: 'integer', example: 300 })
  limit!: number;

  @ApiProperty({ type: 'integer', example: 287 })
  remaining!: number;

  @ApiProperty({ type: 'integer', description: 'Unix time, in seconds, at which it ends' })
  reset!: number;
}

@ApiSchema({ name: 'KeyUsage' })
export class UsageDto {
  @ApiProperty({ type: WindowUsageDto })
  minute!: WindowUsageDto;

  @ApiProperty({ type: WindowUsageDto })
  day!: WindowUsageDto;
}

/** The key a request carries, and what is left of its budget. */
@ApiSchema({ name: 'OwnKey' })
export class OwnKeyDto extends PickType(KeyDto, [
  'id',
  'name',
  'plan',
  'limits',
  'scopes',
  'organizationId',
  'expiresAt',
] as const) {
  @ApiPropertyOptional({ type: UsageDto })
  usage!: UsageDto;
}
