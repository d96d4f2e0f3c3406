import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { EVENT_REFERENCE_PATTERN } from '../../../common/events/event-id';

/** The path of an event: its id (or the id v1.2 gave it). */
export class EventIdParamsDto {
  @ApiProperty({
    description:
      'Identifier of the event (an id of v1.2, `evt_<16 digits>_<16 digits>`, still names it)',
    pattern: EVENT_REFERENCE_PATTERN,
  })
  @Matches(new RegExp(EVENT_REFERENCE_PATTERN), {
    message: 'eventId must be an event id: evt_ and 26 letters and digits, as the event gave it',
  })
  eventId!: string;
}
