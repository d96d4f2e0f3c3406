import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BatchedPruner } from '../database/batched-pruner';
import { IDEMPOTENCY_TTL_SECONDS } from './idempotency';

/** Deletes idempotency keys older than their lifetime (24 h): the table holds about a day of creates. */
@Injectable()
export class IdempotencyKeyPruner extends BatchedPruner {
  constructor(dataSource: DataSource) {
    super(
      dataSource,
      new Logger('Idempotency'),
      'expired idempotency key(s)',
      `DELETE FROM idempotency_keys WHERE ctid IN (
         SELECT ctid FROM idempotency_keys
          WHERE created_at < now() - make_interval(secs => $2)
          LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      () => [IDEMPOTENCY_TTL_SECONDS],
    );
  }
}
