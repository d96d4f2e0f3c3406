import { RateLimits, WindowName, WindowState } from './windows';

export interface HitRequest {
  /** Who is counted: an API key, or a client address. */
  subject: string;
  limits: RateLimits;
  /**
   * The caller's time, Unix ms. A store with a clock of its own (Redis: the server's) places the
   * windows by that clock instead, so that every instance shares them whatever its own clock says.
   */
  now: number;
  /** Refusals within one minute beyond which the subject is banned. */
  banThreshold: number;
  banMs: number;
}

export type HitResult = (
  | { outcome: 'admitted'; windows: WindowState[] }
  | { outcome: 'limited'; windows: WindowState[]; exhausted: WindowName }
  | { outcome: 'banned'; windows: WindowState[]; bannedUntil: number }
) & {
  /**
   * The instant the store decided at, Unix ms: the windows, `bannedUntil` and any header or
   * `Retry-After` derived from them are all relative to it.
   */
  now: number;
};

/**
 * Port: the counters of the fixed windows. `hit` checks and counts both windows and the ban in
 * one atomic step, so that at most `limit` requests are admitted per window under any
 * concurrency. A request refused with 429 is not counted in the windows, only toward a ban.
 */
export abstract class WindowStore {
  abstract hit(request: HitRequest): Promise<HitResult>;
  /** End of the subject's ban, in Unix milliseconds, or null. */
  abstract bannedUntil(subject: string, now: number): Promise<number | null>;
  abstract liftBan(subject: string): Promise<void>;
  /**
   * Gives back one request admitted by `hit` in the current windows: for a caller that reserves
   * a slot before it knows whether the attempt counts (the admin lockout counts an attempt before
   * it compares the token, and a success must not stay counted). Never below zero.
   */
  abstract release(subject: string, now: number): Promise<void>;
  /**
   * The subject's windows as they stand, without counting anything: what a client may ask about
   * its own budget at no cost. `now` as in a hit: a store with a clock of its own answers by it.
   */
  abstract peek(subject: string, limits: RateLimits, now: number): Promise<WindowsNow>;
}

/** Both windows of a subject at an instant (Unix ms: the store's, if it has a clock). */
export interface WindowsNow {
  windows: WindowState[];
  now: number;
}

/** Which window a refused request exhausted: the one with nothing left (the day on a tie). */
export function exhaustedWindow(
  limits: RateLimits,
  minuteCount: number,
  dayCount: number,
): WindowName {
  return dayCount >= limits.perDay ? 'day' : minuteCount >= limits.perMinute ? 'minute' : 'day';
}
