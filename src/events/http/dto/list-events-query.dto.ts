import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { EVENT_ID_PATTERN } from '../../../common/events/event';
import { feedEventTypeNames } from '../../../common/events/event-types';
import { FEED_EVENT_TYPE } from '../../../platform/events/event-type-schemas';
import { IsOneOf } from '../../../platform/http/request/one-of.validator';
import { PageQueryDto } from '../../../platform/http/request/page-query.dto';

/** `limit`, `after` (an event id) and the type to filter by, each given at most once. */
export class ListEventsQueryDto extends PickType(PageQueryDto, ['limit'] as const) {
  @ApiPropertyOptional({
    description: 'Return only events after this one (the `next` link sets it)',
    pattern: EVENT_ID_PATTERN,
    example: 'evt_0000000000000742_0000000000000042',
  })
  @IsOptional()
  @IsString({ message: 'after must be given once' })
  @Matches(new RegExp(EVENT_ID_PATTERN), {
    message: 'after must be an event id: evt_, 16 digits, _, 16 digits',
  })
  after?: string;

  @ApiPropertyOptional({
    description: 'Only events of this type',
    ...FEED_EVENT_TYPE,
  })
  @IsOptional()
  @IsString({ message: 'type must be given once' })
  @IsOneOf(feedEventTypeNames)
  type?: string;
}
