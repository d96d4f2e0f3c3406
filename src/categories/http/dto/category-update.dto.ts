import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsText } from '../../../platform/http/request/text.validator';
import { CATEGORY_NAME } from '../../domain/category';

/** The body of putCategory: the name to give the category. */
@ApiSchema({ name: 'CategoryUpdate' })
export class CategoryUpdateDto {
  @ApiProperty({
    description:
      'The name: 1 to 50 characters (Unicode code points), not only white space, that no other category has whatever its case',
    minLength: CATEGORY_NAME.min,
    maxLength: CATEGORY_NAME.max,
    example: 'Dogs',
  })
  @IsText(CATEGORY_NAME)
  name!: string;
}
