import { Module } from '@nestjs/common';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { EventFeed } from './application/event-feed';
import { GetEvent } from './application/get-event.use-case';
import { ListEvents } from './application/list-events.use-case';
import { EventsController } from './http/events.controller';
import { SqlEventFeed } from './infrastructure/sql-event-feed';

/**
 * The feed of what happened (docs/adr/0030): every feature records its events through the
 * EventRecorder port (src/platform/event-log); this feature only reads them.
 */
@Feature({
  tag: {
    name: 'events',
    description: 'What happened: the event feed, and webhook endpoints that receive events',
  },
  tables: { owns: [], uses: ['events'] },
})
@Module({
  imports: [HttpModule],
  controllers: [EventsController],
  providers: [ListEvents, GetEvent, { provide: EventFeed, useClass: SqlEventFeed }],
})
export class EventFeedModule {}
