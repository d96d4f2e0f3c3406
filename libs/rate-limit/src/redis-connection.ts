import Redis, { Cluster, RedisOptions } from 'ioredis';
import { RedisConnectionShape } from './rate-limit.options';
import type { RedisConnection } from './redis-window-store';

/** Longest wait for the connection at start-up; past it the outage policy applies until it comes. */
const READY_WAIT_MS = 1_000;

/**
 * Short timeouts and no queue while disconnected: an outage must never stall a request, it
 * applies the outage policy at once (ResilientWindowStore).
 */
function serverOptions(commandTimeoutMs: number): RedisOptions {
  return {
    // Nothing is opened until the application initialises (connectRedis): an application that
    // fails to start before then leaves no socket behind.
    lazyConnect: true,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 1_000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  };
}

function open(shape: RedisConnectionShape, commandTimeoutMs: number): RedisConnection {
  const options = serverOptions(commandTimeoutMs);
  switch (shape.kind) {
    case 'single':
      return new Redis(shape.url, options);
    case 'sentinel':
      return new Redis({
        ...options,
        sentinels: shape.sentinels,
        name: shape.name,
        sentinelCommandTimeout: commandTimeoutMs,
        // A primary demoted by a failover answers writes with READONLY: reconnect, which asks
        // the Sentinels where the primary is now.
        reconnectOnError: (error) => error.message.startsWith('READONLY'),
        // Follows the Sentinels' +switch-master at once rather than at the next failed command.
        failoverDetector: true,
      });
    case 'cluster':
      return new Cluster(shape.nodes, {
        lazyConnect: true,
        enableOfflineQueue: false,
        clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
        // The cluster's own connections keep their offline queue (ioredis needs it while it
        // reconnects a node); the command timeout still bounds every command.
        redisOptions: {
          commandTimeout: commandTimeoutMs,
          connectTimeout: 1_000,
          maxRetriesPerRequest: 0,
        },
      });
  }
}

/** The connection of the configured shape, not yet connected. */
export function openRedis(shape: RedisConnectionShape, commandTimeoutMs: number): RedisConnection {
  const redis = open(shape, commandTimeoutMs);
  // Connection errors are reported through the store's outage log, once per incident.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Connects, waiting up to a second for Redis: if it is down at start-up, the outage policy
 * applies while the connection keeps retrying.
 */
export async function connectRedis(redis: RedisConnection): Promise<void> {
  if (redis.status !== 'wait') return;
  // A first attempt that fails rejects, yet the retry strategy goes on reconnecting.
  redis.connect().catch(() => undefined);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, READY_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Whether Redis answers: the server (for Sentinel, the current primary), or on a Cluster every
 * primary, since each holds a share of the subjects.
 */
export async function redisAnswers(redis: RedisConnection): Promise<boolean> {
  try {
    if (redis instanceof Cluster) {
      const primaries = redis.nodes('master');
      if (redis.status !== 'ready' || primaries.length === 0) return false;
      await Promise.all(primaries.map((node) => node.ping()));
    } else {
      await redis.ping();
    }
    return true;
  } catch {
    return false;
  }
}
