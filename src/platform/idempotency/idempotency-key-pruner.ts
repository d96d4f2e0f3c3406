import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IDEMPOTENCY_TTL_SECONDS } from './idempotency';

/** Rows deleted per statement: each batch is short, and no connection is held between batches. */
const BATCH_SIZE = 1_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Deletes idempotency keys older than their lifetime (24 h), so the table holds about a day of
 * creates. A batch at a time, skipping rows another instance is deleting, so that neither requests
 * nor other instances wait on it; every instance runs it, at a random offset.
 */
@Injectable()
export class IdempotencyKeyPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    const first = setTimeout(() => {
      void this.pruneInBackground();
      this.timer = setInterval(() => void this.pruneInBackground(), PRUNE_EVERY_MS).unref();
    }, Math.random() * PRUNE_EVERY_MS);
    first.unref();
    this.timer = first;
  }

  async onApplicationShutdown(): Promise<void> {
    // Node clears a timeout and an interval alike.
    clearTimeout(this.timer);
    await this.running;
  }

  /** Deletes every expired key, batch by batch; returns how many. */
  prune(): Promise<number> {
    this.running ??= this.deleteExpired().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pruneInBackground(): Promise<void> {
    try {
      const deleted = await this.prune();
      if (deleted > 0) this.logger.log(`Deleted ${deleted} expired idempotency key(s).`);
    } catch (error) {
      this.logger.warn(`Could not delete expired idempotency keys: ${(error as Error).message}`);
    }
  }

  private async deleteExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      // TypeORM answers a DELETE with [rows, row count].
      const [, deleted] = (await this.dataSource.query(
        `DELETE FROM idempotency_keys WHERE ctid IN (
           SELECT ctid FROM idempotency_keys
            WHERE created_at < now() - make_interval(secs => $1)
            LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [IDEMPOTENCY_TTL_SECONDS, BATCH_SIZE],
      )) as [unknown[], number];
      total += deleted;
      if (deleted < BATCH_SIZE) return total;
    }
  }
}
