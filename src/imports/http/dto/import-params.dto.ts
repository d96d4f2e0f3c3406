import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { EXPORT_FORMATS } from '../../application/export-pets.use-case';
import { ImportNotFoundError, OrganizationNotFoundError } from '../../domain/import.errors';

/** `/v1/imports/{importId}`. */
export class ImportIdParamsDto {
  @ApiProperty({
    description: 'Identifier of the import',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  importId!: string;
}

/** `/v1/organizations/{organizationId}/pets/export`. */
export class ExportParamsDto {
  @ApiProperty({
    description: 'Identifier of the organisation',
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsInt64Text(1n)
  organizationId!: string;
}

export class ImportQueryDto {
  @ApiPropertyOptional({
    description:
      '`true`: check every row and change nothing (the counts say what an import would do)',
    type: 'string',
    enum: ['true', 'false'],
  })
  @IsOptional()
  @IsString({ message: 'dryRun must be given once' })
  @IsIn(['true', 'false'], { message: 'dryRun must be true or false' })
  dryRun?: string;
}

export class ExportQueryDto {
  @ApiProperty({
    description:
      "`csv`: the import's columns (it imports back unchanged); `ndjson`: one Pet a line; `petfinder`: Petfinder's upload columns and codes (docs/api.md)",
    enum: EXPORT_FORMATS,
  })
  @IsString({ message: 'format must be given once' })
  @IsIn(EXPORT_FORMATS, { message: `format must be one of ${EXPORT_FORMATS.join(', ')}` })
  format!: string;
}

/** Ids beyond 2^53 - 1 name nothing that can exist: a 404 with the id as written. */
export function importIdOf({ importId }: ImportIdParamsDto): number {
  if (BigInt(importId) > BigInt(Number.MAX_SAFE_INTEGER)) throw new ImportNotFoundError(importId);
  return Number(importId);
}

export function organizationIdOf({ organizationId }: ExportParamsDto): number {
  if (BigInt(organizationId) > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new OrganizationNotFoundError(organizationId);
  }
  return Number(organizationId);
}
