import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { EVENT_ID_PATTERN } from '../../../common/events/event';

/** The path of an event: its id, `evt_`, 16 digits, `_`, 16 digits. */
export class EventIdParamsDto {
  @ApiProperty({ description: 'Identifier of the event', pattern: EVENT_ID_PATTERN })
  @Matches(new RegExp(EVENT_ID_PATTERN), {
    message: 'eventId must be an event id: evt_, 16 digits, _, 16 digits',
  })
  eventId!: string;
}
