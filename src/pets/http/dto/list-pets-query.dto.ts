import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { PageQueryDto } from '../../../platform/http/request/page-query.dto';
import { IsText } from '../../../platform/http/request/text.validator';
import { PET_STATUSES, PetStatus } from '../../../common/pet-status';
import { MAX_CATEGORY_ID, PET_NAME } from '../../domain/pet';

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
      'Only animals whose name contains this text, whatever the case of either; every character is literal (`%`, `_` and `\\` included)',
    minLength: PET_NAME.min,
    maxLength: PET_NAME.max,
  })
  @IsOptional()
  @IsString({ message: 'name must be given once' })
  @IsText(PET_NAME)
  name?: string;
}
