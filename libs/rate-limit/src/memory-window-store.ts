import { exhaustedWindow, HitRequest, HitResult, WindowStore, WindowsNow } from './window-store';
import { MINUTE_MS, RateLimits, windowsAt, windowStates } from './windows';

interface Counter {
  count: number;
  expiresAt: number;
}

/**
 * The windows in this process, by the caller's clock: exact within one instance (a hit runs without yielding), for a
 * single instance or as the fallback while Redis is unreachable. Memory stays bounded: expired
 * counters are swept once per minute, by the first hit of the minute, with no timer per hit.
 */
export class MemoryWindowStore extends WindowStore {
  private readonly counters = new Map<string, Counter>();
  private readonly bans = new Map<string, number>();
  private lastSweep = 0;

  async hit({ subject, limits, now, banThreshold, banMs }: HitRequest): Promise<HitResult> {
    this.sweep(now);
    const { minute, day } = windowsAt(now);
    const minuteCounter = this.counter(`${subject}|m|${minute.start}`, minute.end);
    const dayCounter = this.counter(`${subject}|d|${day.start}`, day.end);

    const bannedUntil = this.bans.get(subject);
    if (bannedUntil !== undefined && bannedUntil > now) {
      return {
        outcome: 'banned',
        windows: windowStates(now, limits, minuteCounter.count, dayCounter.count),
        bannedUntil,
        now,
      };
    }
    if (minuteCounter.count < limits.perMinute && dayCounter.count < limits.perDay) {
      minuteCounter.count++;
      dayCounter.count++;
      return {
        outcome: 'admitted',
        windows: windowStates(now, limits, minuteCounter.count, dayCounter.count),
        now,
      };
    }
    const windows = windowStates(now, limits, minuteCounter.count, dayCounter.count);
    const refusals = this.counter(`${subject}|r|${minute.start}`, minute.end);
    if (++refusals.count > banThreshold) {
      this.bans.set(subject, now + banMs);
      return { outcome: 'banned', windows, bannedUntil: now + banMs, now };
    }
    return {
      outcome: 'limited',
      windows,
      exhausted: exhaustedWindow(limits, minuteCounter.count, dayCounter.count),
      now,
    };
  }

  async bannedUntil(subject: string, now: number): Promise<number | null> {
    const until = this.bans.get(subject);
    return until !== undefined && until > now ? until : null;
  }

  async liftBan(subject: string): Promise<void> {
    this.bans.delete(subject);
    for (const key of this.counters.keys())
      if (key.startsWith(`${subject}|r|`)) this.counters.delete(key);
  }

  async release(subject: string, now: number): Promise<void> {
    const { minute, day } = windowsAt(now);
    for (const key of [`${subject}|m|${minute.start}`, `${subject}|d|${day.start}`]) {
      const counter = this.counters.get(key);
      if (counter && counter.count > 0) counter.count--;
    }
  }

  async peek(subject: string, limits: RateLimits, now: number): Promise<WindowsNow> {
    const { minute, day } = windowsAt(now);
    const count = (key: string) => this.counters.get(key)?.count ?? 0;
    const windows = windowStates(
      now,
      limits,
      count(`${subject}|m|${minute.start}`),
      count(`${subject}|d|${day.start}`),
    );
    return { windows, now };
  }

  /** Live counters and bans, for tests of the memory bound. */
  get size(): number {
    return this.counters.size + this.bans.size;
  }

  private counter(key: string, expiresAt: number): Counter {
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { count: 0, expiresAt };
      this.counters.set(key, counter);
    }
    return counter;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < MINUTE_MS) return;
    this.lastSweep = now;
    for (const [key, counter] of this.counters)
      if (counter.expiresAt <= now) this.counters.delete(key);
    for (const [subject, until] of this.bans) if (until <= now) this.bans.delete(subject);
  }
}
