import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { answers } from './peers/processes';
import { RedisServer } from './peers/redis-server';

/** What this run started, for the teardown. */
export interface StartedPeers {
  embeddedPostgres?: { db: PGlite; server: PGLiteSocketServer };
  redis?: RedisServer;
}

const peers = globalThis as { testPeers?: StartedPeers };

/** Stops the run with one line saying what is missing, instead of failing test by test. */
function missing(line: string): never {
  process.stderr.write(`\n${line}\n`);
  process.exit(1);
}

async function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return answers(hostname.replace(/^\[|\]$/g, ''), Number(port || defaultPort), 2000);
}

/**
 * The run's PostgreSQL: DATABASE_URL when set, else one in-memory embedded engine started here,
 * once per run (PGlite cannot start inside a Jest worker).
 */
async function provideDatabase(started: StartedPeers): Promise<void> {
  if (process.env.DATABASE_URL) {
    if (!(await reachable(process.env.DATABASE_URL, 5432))) {
      missing('DATABASE_URL is set but nothing answers there: start PostgreSQL, or unset it.');
    }
    return;
  }
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 100 });
  await server.start();
  started.embeddedPostgres = { db, server };
  process.env.DATABASE_URL = `postgres://postgres@${server.getServerConn()}/postgres`;
  process.env.TEST_EMBEDDED_DATABASE = 'true';
  // As the service does with its own embedded engine: one connection (docs/adr/0003), and
  // unnamed statements, since every connection to it shares one session (docs/adr/0008).
  process.env.DATABASE_POOL_SIZE ??= '1';
  process.env.DATABASE_PREPARED_STATEMENTS ??= 'false';
}

/**
 * The run's Redis: REDIS_URL when set, else the machine's on 127.0.0.1:6379, else a throw-away
 * redis-server from PATH on a free port.
 */
async function provideRedis(started: StartedPeers): Promise<void> {
  if (process.env.REDIS_URL) {
    if (!(await reachable(process.env.REDIS_URL, 6379))) {
      missing('REDIS_URL is set but nothing answers there: start Redis, or unset it.');
    }
    return;
  }
  if (await answers('127.0.0.1', 6379)) {
    process.env.REDIS_URL = 'redis://127.0.0.1:6379';
    return;
  }
  if (!RedisServer.available()) {
    missing(
      'The tests need Redis: set REDIS_URL, run one on 127.0.0.1:6379, or put redis-server on PATH.',
    );
  }
  started.redis = await RedisServer.start();
  process.env.REDIS_URL = started.redis.url;
}

export default async function globalSetup(): Promise<void> {
  // Names this run, for what is done once per run (test/support/service-process.ts).
  process.env.TEST_RUN_ID = `${process.pid}-${Date.now()}`;
  const started: StartedPeers = {};
  peers.testPeers = started;
  await provideDatabase(started);
  await provideRedis(started);
}
