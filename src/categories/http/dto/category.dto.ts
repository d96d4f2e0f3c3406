import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CATEGORY_NAME, MAX_CATEGORY_ID } from '../../domain/category';

/** A category of animals, as returned. */
@ApiSchema({ name: 'Category' })
export class CategoryDto {
  @ApiProperty({
    description:
      "The category's identifier: chosen by clients, as an animal's `categoryId` names it",
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_CATEGORY_ID,
    example: 1,
  })
  id!: number;

  @ApiProperty({
    description:
      'Its name, unique whatever its case; null until named (a category exists as soon as an animal names it)',
    type: 'string',
    nullable: true,
    minLength: CATEGORY_NAME.min,
    maxLength: CATEGORY_NAME.max,
    example: 'Dogs',
  })
  name!: string | null;
}
