import { RateLimits } from './windows';

/** A Redis host and port: a seed node of a Cluster, or a Sentinel. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Where the shared counters live, in one of the shapes operators run: one server (`url`), a
 * Redis Cluster (any of its nodes: the others are discovered), or a primary managed by Sentinel
 * (the Sentinels, and the name they monitor it under: a failover is followed without a restart).
 */
export type RedisConnectionShape =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: RedisNode[] }
  | { kind: 'sentinel'; sentinels: RedisNode[]; name: string };

export interface RateLimitOptions {
  /** Shared counters in Redis; without it the counters live in this process. */
  redis?: RedisConnectionShape;
  /** Prefix of every Redis key the limiter writes. */
  redisKeyPrefix?: string;
  /**
   * Longest wait for one Redis reply while the connection is up; past it that request is answered
   * 503 (never admitted uncounted): a late reply is no outage (docs/adr/0024).
   */
  redisCommandTimeoutMs?: number;
  /** Limits of a client without a valid key, counted per client address. */
  anonymousLimits?: RateLimits;
  /** 429s within one minute beyond which a subject is banned. */
  banThreshold?: number;
  banSeconds?: number;
  /** When Redis is unreachable: false keeps serving on per-instance counters, true answers 503. */
  failClosed?: boolean;
}

export type ResolvedRateLimitOptions = Required<Omit<RateLimitOptions, 'redis'>> &
  Pick<RateLimitOptions, 'redis'>;

export const RATE_LIMIT_OPTIONS = Symbol('RATE_LIMIT_OPTIONS');

export function resolveRateLimitOptions(options: RateLimitOptions): ResolvedRateLimitOptions {
  return {
    redis: options.redis,
    redisKeyPrefix: options.redisKeyPrefix ?? 'rate-limit:',
    redisCommandTimeoutMs: options.redisCommandTimeoutMs ?? 2_000,
    anonymousLimits: options.anonymousLimits ?? { perMinute: 60, perDay: 1_000 },
    banThreshold: options.banThreshold ?? 30,
    banSeconds: options.banSeconds ?? 600,
    failClosed: options.failClosed ?? false,
  };
}
