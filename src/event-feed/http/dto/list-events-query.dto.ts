import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { EVENT_REFERENCE_PATTERN } from '../../../common/events/event-id';
import { feedEventTypeNames } from '../../../common/events/event-types';
import { FEED_EVENT_TYPE } from '../../../platform/event-log/event-type-schemas';
import { IsOneOf } from '../../../platform/http/request/one-of.validator';
import { PageQueryDto } from '../../../platform/http/request/page-query.dto';

/** `limit`, `after` (an event id) and the type to filter by, each given at most once. */
export class ListEventsQueryDto extends PickType(PageQueryDto, ['limit'] as const) {
  @ApiPropertyOptional({
    description:
      'Return only events after this one (the `next` link sets it; an id of v1.2 still works)',
    pattern: EVENT_REFERENCE_PATTERN,
    example: 'evt_01KB3Z8M6T4V9Q2XHJ7C5N0RDW',
  })
  @IsOptional()
  @IsString({ message: 'after must be given once' })
  @Matches(new RegExp(EVENT_REFERENCE_PATTERN), {
    message: 'after must be an event id: evt_ and 26 letters and digits, as the event gave it',
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
