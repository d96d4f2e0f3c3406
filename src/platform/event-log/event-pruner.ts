import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { BatchedPruner } from '../database/batched-pruner';

/**
 * Deletes events older than EVENT_RETENTION_DAYS, oldest first, with their deliveries and
 * attempts (which cascade), as the idempotency keys are pruned.
 */
@Injectable()
export class EventPruner extends BatchedPruner {
  constructor(dataSource: DataSource, config: AppConfig) {
    super(
      dataSource,
      new Logger('Events'),
      'event(s) past their retention',
      `DELETE FROM events WHERE id IN (
         SELECT id FROM events WHERE occurred_at < now() - make_interval(days => $2)
          ORDER BY occurred_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      () => [config.events.retentionDays],
    );
  }
}
