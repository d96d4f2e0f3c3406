import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { BackgroundPacing } from './background-pacing';

/**
 * Background work every instance runs from start to shutdown: a step, again once paced
 * (BackgroundPacing, docs/adr/0056) while the step says there is more, else after the interval.
 * A failing step (an outage) is warned of at most every 10 s, so that it does not flood the log,
 * and tried again after the interval.
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
    private readonly pacing: BackgroundPacing,
  ) {}

  /**
   * One step of the work; true when more is waiting at once, 'heavy' when more is waiting and
   * this step's work was heavy (BackgroundPacing).
   */
  protected abstract step(): Promise<boolean | 'heavy'>;

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

  private async run(): Promise<void> {
    while (!this.stopping) {
      const started = performance.now();
      let more: boolean | 'heavy' = false;
      try {
        more = await this.step();
      } catch (error) {
        this.warn(`Could not ${this.failure}: ${(error as Error).message}`);
      }
      if (more) {
        const heavy = more === 'heavy';
        await this.pacing.after(performance.now() - started, { heavy, signal: this.stop.signal });
      } else
        await sleep(this.intervalMs(), undefined, { signal: this.stop.signal }).catch(
          () => undefined,
        );
    }
  }

  private warn(message: string): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.logger.warn(message);
  }
}
