import Redis, { Cluster } from 'ioredis';

/** The variables that name a Redis; the service takes exactly one of the first three. */
const SHAPE_VARIABLES = [
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'REDIS_SENTINELS',
  'REDIS_SENTINEL_NAME',
] as const;

/** The run's Redis Cluster, with TEST_REDIS=cluster (set by the global setup), as seed nodes. */
export function runClusterNodes(): string | undefined {
  return process.env.TEST_REDIS_CLUSTER_NODES || undefined;
}

/**
 * The Redis variables of a test app or service process: the Redis the spec names in `env`, if it
 * names one (the other shapes blanked, which the service reads as unset, as it does a variable
 * named with no value); otherwise the run's:
 * REDIS_URL, or with TEST_REDIS=cluster the run's Cluster in REDIS_CLUSTER_NODES instead.
 */
export function redisEnv(env: Record<string, string | undefined>): Record<string, string> {
  if (SHAPE_VARIABLES.some((name) => name in env)) {
    return Object.fromEntries(SHAPE_VARIABLES.map((name) => [name, env[name] ?? '']));
  }
  const nodes = runClusterNodes();
  return nodes ? { REDIS_URL: '', REDIS_CLUSTER_NODES: nodes, REDIS_SENTINELS: '' } : {};
}

/** A connection to the Redis the run's apps use by default, for specs that look into it. */
export function connectRunRedis(): Redis | Cluster {
  const nodes = runClusterNodes();
  if (!nodes) return new Redis(process.env.REDIS_URL!);
  return new Cluster(
    nodes.split(',').map((node) => {
      const [host, port] = node.split(':');
      return { host, port: Number(port) };
    }),
  );
}

/** The keys matching a pattern, on every primary of a Cluster. */
export async function keysMatching(redis: Redis | Cluster, pattern: string): Promise<string[]> {
  // A Cluster knows its primaries once it has read the slots.
  if (redis instanceof Cluster && redis.status !== 'ready') {
    await new Promise((resolve) => redis.once('ready', resolve));
  }
  const servers = redis instanceof Cluster ? redis.nodes('master') : [redis];
  return (await Promise.all(servers.map((server) => server.keys(pattern)))).flat();
}
