import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Rows deleted per statement: each batch is short, and no connection is held between batches. */
const BATCH_SIZE = 1_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Deletes rows past their lifetime (idempotency keys, events): a batch at a time, skipping rows
 * another instance is deleting, so that neither requests nor other instances wait on it. Every
 * instance runs it, at a random offset, every ten minutes. A subclass says which rows.
 */
export abstract class BatchedPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  /**
   * @param deleteBatch a DELETE of at most $1 rows past their lifetime, its other values after
   * @param what the rows, as the log names them
   */
  protected constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
    private readonly what: string,
    private readonly deleteBatch: string,
    private readonly values: () => unknown[],
  ) {}

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

  /** Deletes every row past its lifetime, batch by batch; returns how many. */
  prune(): Promise<number> {
    this.running ??= this.deleteExpired().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pruneInBackground(): Promise<void> {
    try {
      const deleted = await this.prune();
      if (deleted > 0) this.logger.log(`Deleted ${deleted} ${this.what}.`);
    } catch (error) {
      this.logger.warn(`Could not delete ${this.what}: ${(error as Error).message}`);
    }
  }

  private async deleteExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      // TypeORM answers a DELETE with [rows, row count].
      const [, deleted] = (await this.dataSource.query(this.deleteBatch, [
        BATCH_SIZE,
        ...this.values(),
      ])) as [unknown[], number];
      total += deleted;
      if (deleted < BATCH_SIZE) return total;
    }
  }
}
