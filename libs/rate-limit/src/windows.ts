export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export type WindowName = 'minute' | 'day';

export interface RateLimits {
  perMinute: number;
  perDay: number;
}

/** A fixed window as a client sees it after a request. */
export interface WindowState {
  name: WindowName;
  limit: number;
  /** Requests the client may still make in this window. */
  remaining: number;
  /** Unix time, in whole seconds, at which the window ends. */
  resetAt: number;
}

/** The windows containing `now`: the current UTC minute and the current UTC day. */
export function windowsAt(now: number): Record<WindowName, { start: number; end: number }> {
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  // Unix time has no leap seconds, so whole multiples of a day are UTC midnights.
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  return {
    minute: { start: minute, end: minute + MINUTE_MS },
    day: { start: day, end: day + DAY_MS },
  };
}

/** Builds the states of both windows from their counts after a request. */
export function windowStates(
  now: number,
  limits: RateLimits,
  minuteCount: number,
  dayCount: number,
): WindowState[] {
  const { minute, day } = windowsAt(now);
  return [
    {
      name: 'minute',
      limit: limits.perMinute,
      remaining: Math.max(0, limits.perMinute - minuteCount),
      resetAt: minute.end / 1000,
    },
    {
      name: 'day',
      limit: limits.perDay,
      remaining: Math.max(0, limits.perDay - dayCount),
      resetAt: day.end / 1000,
    },
  ];
}
