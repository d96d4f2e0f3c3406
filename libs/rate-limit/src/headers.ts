import { RateLimits, WindowState } from './windows';

/**
 * The window the X-RateLimit-* headers and the IETF `RateLimit` field describe: the one with the
 * fewest requests left; on a tie the one that ends later, since a client with both spent must
 * wait for that one.
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

const WINDOW_SECONDS = { minute: 60, day: 86_400 };

const policyText = (perMinute: number, perDay: number) =>
  `"minute";q=${perMinute};w=${WINDOW_SECONDS.minute}, "day";q=${perDay};w=${WINDOW_SECONDS.day}`;

/**
 * The policies already written, per limits object: a plan's limits, the anonymous limits and a
 * known key's limits are the same object on every request, so the field is built once for each
 * rather than on every response. Limits objects are never changed once made.
 */
const policies = new WeakMap<RateLimits, string>();

/**
 * The IETF `RateLimit-Policy` field (draft-ietf-httpapi-ratelimit-headers-11) of a client's
 * limits: both windows, `"minute";q=60;w=60, "day";q=1000;w=86400`.
 */
export function rateLimitPolicy(limits: RateLimits): string {
  let policy = policies.get(limits);
  if (policy === undefined) {
    policy = policyText(limits.perMinute, limits.perDay);
    policies.set(limits, policy);
  }
  return policy;
}

/** The policy of the windows themselves, for a caller that holds no limits object. */
const policyOfWindows = (windows: WindowState[]) =>
  policyText(
    windows.find((w) => w.name === 'minute')!.limit,
    windows.find((w) => w.name === 'day')!.limit,
  );

/**
 * The rate-limit headers of a response: X-RateLimit-* for the window nearest exhaustion, the
 * IETF `RateLimit-Policy` for both windows (give `policy`, from `rateLimitPolicy`, to spare
 * building it), and the IETF `RateLimit` for the same window as X-RateLimit-*:
 * `"minute";r=59;t=42` (requests left, seconds until it ends).
 */
export function rateLimitHeaders(
  windows: WindowState[],
  now: number,
  policy: string = policyOfWindows(windows),
): Record<string, string> {
  const shown = headerWindow(windows);
  return {
    'X-RateLimit-Limit': String(shown.limit),
    'X-RateLimit-Remaining': String(shown.remaining),
    'X-RateLimit-Reset': String(shown.resetAt),
    'RateLimit-Policy': policy,
    RateLimit: `"${shown.name}";r=${shown.remaining};t=${secondsUntil(shown.resetAt, now)}`,
  };
}
