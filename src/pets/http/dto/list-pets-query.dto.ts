import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { PageQueryDto } from '../../../platform/http/request/page-query.dto';
import { IsSearchText } from '../../../platform/http/request/search-text.validator';
import { PET_STATUSES, PetStatus } from '../../../common/pet-status';
import { SEARCH_TEXT } from '../../../common/search-text';
import { MAX_CATEGORY_ID } from '../../domain/pet';

/** `limit`, `after`, and the status, category and name fragment to filter by. */
export class ListPetsQueryDto extends PageQueryDto {
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
    description: 'Only animals of this category',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_CATEGORY_ID,
  })
  @IsOptional()
  @IsString({ message: 'categoryId must be given once' })
  @IsInt64Text(1n, BigInt(MAX_CATEGORY_ID))
  categoryId?: string;

  @ApiPropertyOptional({
    description:
      'Only animals whose name contains this text, whatever the case of either; at least 3 letters or digits; every character is literal (`%`, `_` and `\\` included)',
    minLength: SEARCH_TEXT.min,
    maxLength: SEARCH_TEXT.max,
  })
  @IsOptional()
  @IsString({ message: 'name must be given once' })
  @IsSearchText()
  name?: string;
}
