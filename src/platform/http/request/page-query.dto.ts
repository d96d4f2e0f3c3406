import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../common/paging';
import { IsInt64Text } from './int64';

/**
 * The query of a keyset-paged listing: `limit` and `after`. Query values arrive as strings; they
 * are checked as text so nothing is coerced or rounded. A listing's DTO extends it.
 */
export class PageQueryDto {
  @ApiPropertyOptional({
    description: 'Maximum number of items to return',
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
  })
  @IsOptional()
  @IsString({ message: 'limit must be given once' })
  @IsInt64Text(1n, BigInt(MAX_PAGE_SIZE))
  limit?: string;

  @ApiPropertyOptional({
    description: 'Return only items whose id is greater than this (the `next` link sets it)',
    type: 'integer',
    format: 'int64',
    minimum: 0,
  })
  @IsOptional()
  @IsString({ message: 'after must be given once' })
  @IsInt64Text(0n)
  after?: string;
}
