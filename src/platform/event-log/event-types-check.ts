import { Injectable, OnModuleInit } from '@nestjs/common';
import { eventTypeProblems } from '../../common/events/event-types';
import { SCOPES } from '../../common/scopes';

/**
 * Refuses to start with an event type declared wrongly (a name taken twice or badly formed, a
 * scope the application does not know), rather than recording events no one can read, or that
 * the database refuses when a change commits.
 */
@Injectable()
export class EventTypesCheck implements OnModuleInit {
  onModuleInit(): void {
    const problems = eventTypeProblems(SCOPES);
    if (problems.length > 0) {
      throw new Error(`The event types are declared wrongly: ${problems.join('; ')}.`);
    }
  }
}
