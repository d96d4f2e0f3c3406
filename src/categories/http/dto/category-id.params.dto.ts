import { ApiProperty } from '@nestjs/swagger';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { CategoryId, MAX_CATEGORY_ID } from '../../domain/category';

/** The path of a category: an integer from 1 to 2^53 - 1, as text, never rounded. */
export class CategoryIdParamsDto {
  @ApiProperty({
    description: 'Identifier of the category',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_CATEGORY_ID,
  })
  @IsInt64Text(1n, BigInt(MAX_CATEGORY_ID))
  categoryId!: string;
}

/** The category id a valid path names: exact as a number, being at most 2^53 - 1. */
export const categoryIdOf = ({ categoryId }: CategoryIdParamsDto): CategoryId => Number(categoryId);
