import { RateLimits } from './windows';

export interface RateLimitOptions {
  /** Shared counters in Redis; without it the counters live in this process. */
  redisUrl?: string;
  /** Prefix of every Redis key the limiter writes. */
  redisKeyPrefix?: string;
  /** Longest wait for one Redis command before the outage policy applies. */
  redisCommandTimeoutMs?: number;
  /** Limits of a client without a valid key, counted per client address. */
  anonymousLimits?: RateLimits;
  /** 429s within one minute beyond which a subject is banned. */
  banThreshold?: number;
  banSeconds?: number;
  /** When Redis is unreachable: false keeps serving on per-instance counters, true answers 503. */
  failClosed?: boolean;
}

export type ResolvedRateLimitOptions = Required<Omit<RateLimitOptions, 'redisUrl'>> &
  Pick<RateLimitOptions, 'redisUrl'>;

export const RATE_LIMIT_OPTIONS = Symbol('RATE_LIMIT_OPTIONS');

export function resolveRateLimitOptions(options: RateLimitOptions): ResolvedRateLimitOptions {
  return {
    redisUrl: options.redisUrl,
    redisKeyPrefix: options.redisKeyPrefix ?? 'rate-limit:',
    redisCommandTimeoutMs: options.redisCommandTimeoutMs ?? 250,
    anonymousLimits: options.anonymousLimits ?? { perMinute: 60, perDay: 1_000 },
    banThreshold: options.banThreshold ?? 30,
    banSeconds: options.banSeconds ?? 600,
    failClosed: options.failClosed ?? false,
  };
}
