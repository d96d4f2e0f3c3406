import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { SEARCH_TEXT } from '../../../common/search-text';
import { NearPageQueryDto } from '../../../platform/http/request/near-query.dto';
import { IsSearchText } from '../../../platform/http/request/search-text.validator';

/** `limit`, `after`, a name fragment, and a point with a radius. */
export class ListOrganizationsQueryDto extends NearPageQueryDto {
  @ApiPropertyOptional({
    description:
      'Only organisations whose name contains this text, whatever the case of either; at least 3 letters or digits; every character literal',
    minLength: SEARCH_TEXT.min,
    maxLength: SEARCH_TEXT.max,
  })
  @IsOptional()
  @IsString({ message: 'name must be given once' })
  @IsSearchText()
  name?: string;
}
