import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EVENT_ID_PATTERN } from '../../../common/events/event';
import { EVENT_TYPE } from '../../../platform/events/event-type-schemas';

/** Something that happened: the feed's item, and the body of every webhook delivery. */
@ApiSchema({ name: 'Event' })
export class EventDto {
  @ApiProperty({
    description:
      '`evt_`, the recording transaction and a sequence number: unique, and ascending (as text too) in the feed’s order. The `webhook-id` of its deliveries.',
    pattern: EVENT_ID_PATTERN,
    example: 'evt_0000000000000742_0000000000000042',
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
