import { Logger } from '@nestjs/common';
import { ReplyError } from 'ioredis';
import { HitRequest, HitResult, WindowStore, WindowsNow } from './window-store';
import { RateLimits } from './windows';
import { MemoryWindowStore } from './memory-window-store';

/** The shared store cannot count this request; the client should retry after `retryAfterSeconds`. */
export class WindowStoreUnavailableError extends Error {
  constructor(
    cause: unknown,
    readonly retryAfterSeconds = 5,
  ) {
    super(`Rate-limit store unreachable: ${(cause as Error)?.message ?? cause}`);
    this.name = 'WindowStoreUnavailableError';
  }
}

/** The message ioredis rejects a command with when its reply is later than `commandTimeout`. */
const COMMAND_TIMED_OUT = 'Command timed out';

/** How often a late reply is logged again while replies keep being late. */
const LATE_REPLY_LOG_INTERVAL_MS = 60_000;

/** How often the same error answered by the store is logged again. */
const ANSWERED_ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * Wraps the shared store with the outage policy. Fail-open (the default): while the shared store
 * is unreachable, count in this process instead, so clients keep being limited per instance and
 * keep getting headers. Fail-closed: raise WindowStoreUnavailableError. Logs once per incident.
 *
 * An error the store answered with (Redis replied: out of memory, a read-only replica, data it
 * cannot use) is no outage: the policy applies to that call alone, and it is logged at most once
 * a minute per message, so that one bad key cannot make the log say "unreachable" on every request.
 *
 * A late reply is no outage either (docs/adr/0024): while the connection is up, a command that
 * times out raises WindowStoreUnavailableError for that request alone (503, `Retry-After: 1`),
 * whatever the policy. Counting it per instance instead would admit requests the shared window
 * may already have refused: under CPU saturation, replies come late on every instance at once, and
 * per-instance counters starting from zero admitted twice the limit over two instances.
 */
export class ResilientWindowStore extends WindowStore {
  private readonly logger = new Logger('RateLimit');
  private readonly fallback = new MemoryWindowStore();
  private outageSince: number | null = null;
  private readonly answeredErrorsLogged = new Map<string, number>();
  private lateReplyLogged: number | null = null;

  /**
   * @param connected whether the connection to the shared store is up now; a command that times
   * out while it is counts as a late reply, not an outage. By default every failure is an outage.
   */
  constructor(
    private readonly shared: WindowStore,
    private readonly failClosed: boolean,
    private readonly connected: () => boolean = () => false,
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

  async release(subject: string, now: number): Promise<void> {
    await this.call(now, (store) => store.release(subject, now));
  }

  peek(subject: string, limits: RateLimits, now: number): Promise<WindowsNow> {
    return this.call(now, (store) => store.peek(subject, limits, now));
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
      if (error instanceof ReplyError)
        return this.answeredWithError(error as Error, now, operation);
      if ((error as Error)?.message === COMMAND_TIMED_OUT && this.connected()) {
        this.lateReply(now);
        throw new WindowStoreUnavailableError(error, 1);
      }
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

  private lateReply(now: number): void {
    if (this.lateReplyLogged !== null && now - this.lateReplyLogged < LATE_REPLY_LOG_INTERVAL_MS)
      return;
    this.lateReplyLogged = now;
    this.logger.warn(
      'Rate-limit store replied late while connected; answering 503 to the requests it could not ' +
        'count in time (logged at most once a minute).',
    );
  }

  private answeredWithError<T>(
    error: Error,
    now: number,
    operation: (store: WindowStore) => Promise<T>,
  ): Promise<T> {
    const logged = this.answeredErrorsLogged.get(error.message);
    if (logged === undefined || now - logged >= ANSWERED_ERROR_LOG_INTERVAL_MS) {
      this.answeredErrorsLogged.set(error.message, now);
      this.logger.error(
        `Rate-limit store answered with an error (${error.message}); ` +
          (this.failClosed
            ? 'answering 503 for that request.'
            : 'counting that request per instance.'),
      );
    }
    if (this.failClosed) throw new WindowStoreUnavailableError(error);
    return operation(this.fallback);
  }
}
