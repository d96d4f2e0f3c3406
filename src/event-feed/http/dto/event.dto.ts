import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EVENT_ID_PATTERN } from '../../../common/events/event-id';
import { EVENT_TYPE } from '../../../platform/event-log/event-type-schemas';

/** Something that happened: the feed's item, and the body of every webhook delivery. */
@ApiSchema({ name: 'Event' })
export class EventDto {
  @ApiProperty({
    description:
      'Opaque and unique; ascending (as text too) in the feed’s order; it tells nothing of other events. The `webhook-id` of its deliveries.',
    pattern: EVENT_ID_PATTERN,
    example: 'evt_01KB3Z8M6T4V9Q2XHJ7C5N0RDW',
  })
  id!: string;

  @ApiProperty({
    ...EVENT_TYPE,
    description: 'What happened: `<object>.<change>`, as the feature owning the object declares it',
  })
  type!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'When the change happened (UTC)',
  })
  occurredAt!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The object after the change, exactly as the API answers it: a `Pet` for `pet.*`, an `Order` for `order.*`, `{"endpointId"}` for `webhook.test`',
  })
  data!: object;
}
