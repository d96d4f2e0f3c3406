import type { Config } from '@jest/types';
import { missingOptionalPeers, peersRequired } from './peers/optional-peers';
import { PgBouncer } from './peers/pgbouncer';
import { PostgresServer } from './peers/postgres-server';
import { confinementProblems } from './confinement';
import { answers } from './peers/processes';
import { missingRedisPrograms } from './peers/redis-cli';
import { RedisCluster } from './peers/redis-cluster';
import { RedisServer } from './peers/redis-server';
import { cloneWorkerDatabases, embeddedWorkerDatabases, WorkerDatabases } from './worker-databases';

/** What this run started, for the teardown. */
export interface StartedPeers {
  workerDatabases?: WorkerDatabases;
  postgres?: PostgresServer;
  pgbouncer?: PgBouncer;
  redis?: RedisServer;
  redisCluster?: RedisCluster;
}

/** TEST_REDIS: `single` (the default) or `cluster`, which runs every app on a Redis Cluster. */
function redisMode(): 'single' | 'cluster' | undefined {
  const mode = process.env.TEST_REDIS || 'single';
  return mode === 'single' || mode === 'cluster' ? mode : undefined;
}

/** TEST_DATABASE=pgbouncer: the whole run reaches its database through PgBouncer. */
const throughPgBouncer = () => process.env.TEST_DATABASE === 'pgbouncer';

const peers = globalThis as { testPeers?: StartedPeers };

async function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return answers(hostname.replace(/^\[|\]$/g, ''), Number(port || defaultPort), 2000);
}

/**
 * One line, when REDIS_URL is unset and the machine's Redis answers: whose Redis the run uses, and
 * how to confine it.
 */
export function machineRedisWarning(): string {
  const prefix = process.env.TEST_REDIS_KEY_PREFIX;
  return (
    '\nREDIS_URL is unset: this run uses the Redis at 127.0.0.1:6379, shared with every other run and service on this machine, ' +
    (prefix
      ? `its keys under TEST_REDIS_KEY_PREFIX (${prefix}).`
      : 'its keys under the default prefix (pet-adoption-test:), as every other unconfined run: set REDIS_URL and TEST_REDIS_KEY_PREFIX to confine it.') +
    '\n'
  );
}

/** How the run gets its Redis: the configured one, the machine's, or one started here. */
async function redisSource(): Promise<'configured' | 'machine' | 'start' | string> {
  if (process.env.REDIS_URL) {
    return (await reachable(process.env.REDIS_URL, 6379))
      ? 'configured'
      : 'a Redis at REDIS_URL (nothing answers there)';
  }
  if (await answers('127.0.0.1', 6379)) return 'machine';
  return RedisServer.available()
    ? 'start'
    : 'Redis (set REDIS_URL, run one on 127.0.0.1:6379, or put redis-server on PATH)';
}

/**
 * Everything the suite needs and this machine lacks, checked before anything starts, so that a
 * bare machine stops at once with one line rather than failing spec by spec. nginx, PgBouncer, the
 * Redis programs for a Cluster or Sentinel, and PostgreSQL's own programs for a server a spec
 * restarts (when DATABASE_URL is set) are needed only by the specs about them, which are
 * skipped without them (test/support/peers/optional-peers.ts), unless TEST_PEERS=required or the
 * run itself goes through them (TEST_DATABASE=pgbouncer, TEST_REDIS=cluster).
 */
async function missingPeers(redis: string): Promise<string[]> {
  const missing = [];
  if (process.env.TEST_DATABASE && !throughPgBouncer()) {
    missing.push(`TEST_DATABASE unset or "pgbouncer", not "${process.env.TEST_DATABASE}"`);
  }
  if (!['configured', 'machine', 'start'].includes(redis)) missing.push(redis);
  if (process.env.DATABASE_URL) {
    if (!(await reachable(process.env.DATABASE_URL, 5432))) {
      missing.push('a PostgreSQL at DATABASE_URL (nothing answers there)');
    }
  } else if (!PostgresServer.available()) {
    // The embedded engine serves one session: what several instances do at once needs a server.
    missing.push('PostgreSQL server programs (initdb, postgres), or DATABASE_URL');
  }
  missing.push(...confinementProblems());
  if (!['required', 'optional', undefined].includes(process.env.TEST_PEERS)) {
    missing.push(`TEST_PEERS unset, "optional" or "required", not "${process.env.TEST_PEERS}"`);
  }
  if (redisMode() === undefined) {
    missing.push(`TEST_REDIS to be single or cluster, not "${process.env.TEST_REDIS}"`);
  }
  if (peersRequired()) {
    missing.push(...missingOptionalPeers());
  } else {
    const redisPrograms = missingRedisPrograms();
    if (redisMode() === 'cluster' && redisPrograms.length > 0) {
      missing.push(`${redisPrograms.join(' and ')} for TEST_REDIS=cluster (Debian: redis-server)`);
    }
    if (throughPgBouncer() && !PgBouncer.available()) {
      missing.push('pgbouncer for TEST_DATABASE=pgbouncer (Debian: pgbouncer)');
    }
  }
  return missing;
}

/**
 * Puts PgBouncer, in transaction mode, in front of the run's database: DATABASE_URL, or a
 * throw-away PostgreSQL server (PgBouncer cannot front the embedded engine). Specs then reach the
 * database through it, with unnamed statements as such a pooler needs; TEST_DIRECT_DATABASE_URL
 * keeps the server's own address for what must bypass the pooler.
 */
async function startPgBouncer(started: StartedPeers): Promise<void> {
  if (!process.env.DATABASE_URL) {
    started.postgres = await PostgresServer.start();
    process.env.DATABASE_URL = started.postgres.url;
  }
  started.pgbouncer = await PgBouncer.start(process.env.DATABASE_URL);
  process.env.TEST_DIRECT_DATABASE_URL = process.env.DATABASE_URL;
  process.env.DATABASE_URL = started.pgbouncer.urlFor(process.env.DATABASE_URL);
  process.env.DATABASE_PREPARED_STATEMENTS = 'false';
}

/**
 * Once per run, for every project: the run's PostgreSQL (DATABASE_URL's server, or in-memory
 * embedded engines started here, as PGlite cannot start inside a Jest worker; with
 * TEST_DATABASE=pgbouncer, either through PgBouncer) with a migrated database for each of the run's
 * workers (test/support/worker-databases.ts), and Redis (REDIS_URL, the machine's on
 * 127.0.0.1:6379, or a throw-away redis-server from PATH on a free port). With
 * TEST_REDIS=cluster, also a throw-away Redis Cluster that every test app and service process uses
 * instead (TEST_REDIS_CLUSTER_NODES, read by test/support/run-redis.ts); specs that are about one
 * server keep REDIS_URL.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  // Names this run, for what is done once per run (test/support/service-process.ts).
  process.env.TEST_RUN_ID = `${process.pid}-${Date.now()}`;
  process.env.TEST_WORKERS = String(globalConfig.maxWorkers);
  const redis = await redisSource();
  const missing = await missingPeers(redis);
  if (missing.length > 0) {
    process.stderr.write(`\nThe tests need ${missing.join('; ')}.\n`);
    process.exit(1);
  }

  const started: StartedPeers = {};
  peers.testPeers = started;
  if (throughPgBouncer()) await startPgBouncer(started);
  if (process.env.DATABASE_URL) {
    started.workerDatabases = await cloneWorkerDatabases(
      process.env.TEST_DIRECT_DATABASE_URL ?? process.env.DATABASE_URL,
      globalConfig.maxWorkers,
      process.env.TEST_RUN_ID,
    );
  } else {
    started.workerDatabases = await embeddedWorkerDatabases(globalConfig.maxWorkers);
    process.env.TEST_EMBEDDED_DATABASE = 'true';
    // As the service does with its own embedded engine: one connection (docs/adr/0003), and
    // unnamed statements, since every connection to it shares one session (docs/adr/0008).
    process.env.DATABASE_POOL_SIZE ??= '1';
    process.env.DATABASE_PREPARED_STATEMENTS ??= 'false';
  }
  process.env.TEST_WORKER_DATABASES = started.workerDatabases.urls.join(' ');
  if (redis === 'machine') {
    // Unset REDIS_URL used to take the machine's Redis without a word: a run meant to be confined
    // shared it, under the default prefix unless one was set (docs/extending.md, "Run a confined
    // suite"). It still does, as a developer's first `npm test` should pass, but says so.
    process.stderr.write(machineRedisWarning());
    process.env.REDIS_URL = 'redis://127.0.0.1:6379';
  }
  if (redis === 'start') {
    started.redis = await RedisServer.start();
    process.env.REDIS_URL = started.redis.url;
  }
  if (redisMode() === 'cluster') {
    started.redisCluster = await RedisCluster.start();
    process.env.TEST_REDIS_CLUSTER_NODES = started.redisCluster.nodes;
  }
}
