import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { PET_STATUSES, PetStatus } from '../../../common/pet-status';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../application/list-pets.use-case';

/** Query values arrive as strings; they are checked as text so nothing is coerced or rounded. */
export class ListPetsQueryDto {
  @ApiPropertyOptional({
    description: 'Maximum number of animals to return',
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
  })
  @IsOptional()
  @IsString({ message: 'limit must be given once' })
  @Matches(/^(100|[1-9][0-9]?)$/, {
    message: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`,
  })
  limit?: string;

  @ApiPropertyOptional({
    description: 'Filters animals by availability status',
    enum: PET_STATUSES,
    enumName: 'PetStatus',
  })
  @IsOptional()
  @IsString({ message: 'status must be given once' })
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status?: PetStatus;

  @ApiPropertyOptional({
    description: 'Return only animals whose id is greater than this (the `next` link sets it)',
    type: 'integer',
    format: 'int64',
    minimum: 0,
  })
  @IsOptional()
  @IsString({ message: 'after must be given once' })
  @IsInt64Text(0n)
  after?: string;
}
