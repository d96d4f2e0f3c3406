import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EVENT_ID_PATTERN } from '../../../common/events/event-id';
import { EVENT_TYPE } from '../../../platform/event-log/event-type-schemas';
import { ATTEMPT_ERRORS, ATTEMPT_OUTCOMES } from '../../domain/delivery';

/** One attempt to deliver an event: never any of the answer's body. */
@ApiSchema({ name: 'WebhookDeliveryAttempt' })
export class WebhookDeliveryAttemptDto {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'Identifies the attempt (`after`)',
  })
  id!: number;

  @ApiProperty({ pattern: EVENT_ID_PATTERN, description: 'The event: the `webhook-id` sent' })
  eventId!: string;

  @ApiProperty({ ...EVENT_TYPE, description: 'The event’s type' })
  eventType!: string;

  @ApiProperty({
    type: 'integer',
    description: 'Attempts of this delivery so far, this one included',
  })
  attempt!: number;

  @ApiProperty({ enum: ATTEMPT_OUTCOMES, description: 'A 2xx answer in time succeeds' })
  outcome!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The answer’s HTTP status' })
  responseStatus!: number | null;

  @ApiProperty({
    type: 'string',
    enum: [...ATTEMPT_ERRORS, null],
    nullable: true,
    description: 'Why there was no answer; null when there was one',
  })
  error!: string | null;

  @ApiProperty({ type: 'integer' })
  durationMs!: number;

  @ApiProperty({ type: 'string', format: 'date-time' })
  attemptedAt!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due; null when none will be made',
  })
  nextAttemptAt!: string | null;
}
