import { Logger } from '@nestjs/common';
import { HitRequest, HitResult, WindowStore } from './window-store';
import { MemoryWindowStore } from './memory-window-store';

export class WindowStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`Rate-limit store unreachable: ${(cause as Error)?.message ?? cause}`);
    this.name = 'WindowStoreUnavailableError';
  }
}

/**
 * Wraps the shared store with the outage policy. Fail-open (the default): while the shared store
 * is unreachable, count in this process instead, so clients keep being limited per instance and
 * keep getting headers. Fail-closed: raise WindowStoreUnavailableError. Logs once per incident.
 */
export class ResilientWindowStore extends WindowStore {
  private readonly logger = new Logger('RateLimit');
  private readonly fallback = new MemoryWindowStore();
  private outageSince: number | null = null;

  constructor(
    private readonly shared: WindowStore,
    private readonly failClosed: boolean,
  ) {
    super();
  }

  /** Whether the last call to the shared store failed. */
  get degraded(): boolean {
    return this.outageSince !== null;
  }

  hit(request: HitRequest): Promise<HitResult> {
    return this.call(request.now, (store) => store.hit(request));
  }

  bannedUntil(subject: string, now: number): Promise<number | null> {
    return this.call(now, (store) => store.bannedUntil(subject, now));
  }

  async liftBan(subject: string): Promise<void> {
    await this.fallback.liftBan(subject);
    await this.call(Date.now(), (store) => store.liftBan(subject));
  }

  private async call<T>(now: number, operation: (store: WindowStore) => Promise<T>): Promise<T> {
    try {
      const result = await operation(this.shared);
      if (this.outageSince !== null) {
        this.logger.log(
          `Rate-limit store reachable again after ${Math.round((now - this.outageSince) / 1000)} s.`,
        );
        this.outageSince = null;
      }
      return result;
    } catch (error) {
      if (this.outageSince === null) {
        this.outageSince = now;
        this.logger.error(
          `Rate-limit store unreachable (${(error as Error).message}); ` +
            (this.failClosed
              ? 'answering 503 until it returns.'
              : 'counting per instance until it returns.'),
        );
      }
      if (this.failClosed) throw new WindowStoreUnavailableError(error);
      return operation(this.fallback);
    }
  }
}
