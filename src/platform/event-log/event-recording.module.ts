import { Module } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Transactions } from '../../common/transactions';
import { BackgroundModule } from '../background/background.module';
import { EventPruner } from './event-pruner';
import { EventSettler } from './event-settler';
import { EventTypesCheck } from './event-types-check';
import { SqlEventRecorder } from './sql-event-recorder';
import { SqlTransactions } from './sql-transactions';

/**
 * What a feature needs to record its events (docs/adr/0030): the EventRecorder port and the
 * transaction its use cases run in, bound to PostgreSQL. A feature imports this module, never the
 * events feature (the feed) nor the webhooks, which read what is recorded. Old events are pruned
 * here too (EVENT_RETENTION_DAYS), settled events numbered (EventSettler, docs/adr/0048), and the
 * features' declared event types checked at start-up.
 */
@Module({
  imports: [BackgroundModule],
  providers: [
    { provide: EventRecorder, useClass: SqlEventRecorder },
    { provide: Transactions, useClass: SqlTransactions },
    EventPruner,
    EventSettler,
    EventTypesCheck,
  ],
  exports: [EventRecorder, Transactions, EventSettler],
})
export class EventRecordingModule {}
