import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Background work every instance runs from start to shutdown: a step, at once again while the
 * step says there is more, else after the interval. A failing step (an outage) is warned of at
 * most every 10 s, so that it does not flood the log, and tried again after the interval.
 */
export abstract class PolledTask implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopping = false;
  private loop?: Promise<void>;
  private readonly stop = new AbortController();
  private lastWarning = 0;

  /** @param failure what the warning says could not be done ("settle events") */
  protected constructor(
    private readonly logger: Logger,
    private readonly failure: string,
  ) {}

  /** One step of the work; true when more is waiting at once. */
  protected abstract step(): Promise<boolean>;

  /** The pause after a step that left nothing waiting. */
  protected abstract intervalMs(): number;

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  /** Stops the loop, after the step under way. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.stop.abort();
    await this.loop;
  }

  /** Waits `ms`, or less when the task stops. */
  protected async pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.stop.signal }).catch(() => undefined);
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let more = false;
      try {
        more = await this.step();
      } catch (error) {
        this.warn(`Could not ${this.failure}: ${(error as Error).message}`);
      }
      if (!more) await this.pause(this.intervalMs());
    }
  }

  private warn(message: string): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.logger.warn(message);
  }
}
