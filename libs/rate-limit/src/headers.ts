import { WindowState } from './windows';

/**
 * The window the X-RateLimit-* headers describe: the one with the fewest requests left; on a tie
 * the one that ends later, since a client with both spent must wait for that one.
 */
export function headerWindow(windows: WindowState[]): WindowState {
  return windows.reduce((chosen, window) =>
    window.remaining < chosen.remaining ||
    (window.remaining === chosen.remaining && window.resetAt > chosen.resetAt)
      ? window
      : chosen,
  );
}

/** Whole seconds (at least 1) until the window ends, for `Retry-After`. */
export function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt * 1000 - now) / 1000));
}

/**
 * The rate-limit headers of a response: X-RateLimit-* for the most constrained window, and the
 * IETF fields (draft-ietf-httpapi-ratelimit-headers) for both windows.
 */
export function rateLimitHeaders(windows: WindowState[], now: number): Record<string, string> {
  const shown = headerWindow(windows);
  const seconds = { minute: 60, day: 86_400 };
  return {
    'X-RateLimit-Limit': String(shown.limit),
    'X-RateLimit-Remaining': String(shown.remaining),
    'X-RateLimit-Reset': String(shown.resetAt),
    'RateLimit-Policy': windows
      .map((w) => `"${w.name}";q=${w.limit};w=${seconds[w.name]}`)
      .join(', '),
    RateLimit: windows
      .map((w) => `"${w.name}";r=${w.remaining};t=${secondsUntil(w.resetAt, now)}`)
      .join(', '),
  };
}
