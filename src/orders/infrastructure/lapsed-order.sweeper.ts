import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { CancelLapsedOrders } from '../application/cancel-lapsed-orders.use-case';

/**
 * Runs CancelLapsedOrders every ORDER_SWEEP_INTERVAL_MS on every instance, at a random offset, so
 * that an order is cancelled within about that long of lapsing even while some instances are down.
 */
@Injectable()
export class LapsedOrderSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Store');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly intervalMs: number;

  constructor(
    private readonly cancelLapsed: CancelLapsedOrders,
    config: AppConfig,
  ) {
    this.intervalMs = config.store.orderSweepIntervalMs;
  }

  onApplicationBootstrap(): void {
    const first = setTimeout(() => {
      this.sweep();
      this.timer = setInterval(() => this.sweep(), this.intervalMs).unref();
    }, Math.random() * this.intervalMs);
    first.unref();
    this.timer = first;
  }

  async onApplicationShutdown(): Promise<void> {
    // Node clears a timeout and an interval alike.
    clearTimeout(this.timer);
    await this.running;
  }

  private sweep(): void {
    // One sweep at a time per instance: a slow one is not overtaken by the next tick.
    this.running ??= this.cancelLapsed
      .execute()
      .then((cancelled) => {
        if (cancelled.length > 0) {
          this.logger.log(`Cancelled ${cancelled.length} lapsed order(s), freeing their pets.`);
        }
      })
      .catch((error: Error) => this.logger.warn(`Could not cancel lapsed orders: ${error.message}`))
      .finally(() => (this.running = undefined));
  }
}
