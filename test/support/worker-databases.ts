import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { EMBEDDED_EXTENSIONS } from '../../src/platform/database/embedded-postgres';
import { runMigrationsExclusively } from '../../src/platform/database/migrations-runner';
import { databasePrefix } from './confinement';
import { resolveLibraryAliases } from './library-aliases';
import { portToListenOn } from './peers/processes';

/**
 * Every Jest worker has a database of its own, so that files run side by side on both cores
 * without resetting each other's tables (docs/adr/0058). On a PostgreSQL server: one database
 * migrated once per run, then copied for each worker with `CREATE DATABASE … TEMPLATE`, which
 * takes tens of milliseconds where migrating takes seconds. On the embedded engine, which has no
 * templates: one in-memory engine per worker, migrated by the first app that starts on it.
 *
 * The global setup names them in TEST_WORKER_DATABASES (one URL per worker, in worker order) and
 * each file takes its own (test/support/worker-env.ts), as DATABASE_URL.
 */
export interface WorkerDatabases {
  urls: string[];
  drop(): Promise<void>;
}

/** Where the database named `name` is on the server of `serverUrl`. */
function on(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(serverUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Applies the application's migrations, as an instance does at start-up. */
async function migrate(url: string): Promise<void> {
  // Loaded here, once the libraries' aliases resolve (the global setup has no moduleNameMapper).
  resolveLibraryAliases();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { migrations } = require('../../src/migrations') as typeof import('../../src/migrations');
  const dataSource = await new DataSource({ type: 'postgres', url, migrations }).initialize();
  try {
    await runMigrationsExclusively(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * `count` copies of one freshly migrated database on the server that `serverUrl` names (any of
 * its databases; it is left as it is). `reachedAt` turns a direct address into the one specs use
 * (through PgBouncer, when the run goes through it).
 */
export async function cloneWorkerDatabases(
  serverUrl: string,
  count: number,
  runId: string,
): Promise<WorkerDatabases> {
  const base = `${databasePrefix()}_${runId.replace(/\W/g, '_')}`;
  const template = `${base}_template`;
  const names = Array.from({ length: count }, (_, i) => `${base}_w${i + 1}`);
  const drop = () =>
    withAdmin(serverUrl, async (admin) => {
      for (const name of [...names, template]) {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    });
  await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${template}`));
  try {
    await migrate(on(serverUrl, template));
    await withAdmin(serverUrl, async (admin) => {
      for (const name of names) await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    });
  } catch (error) {
    await drop();
    throw error;
  }
  return { urls: names.map((name) => on(serverUrl, name)), drop };
}

/** One in-memory embedded engine per worker, each behind a socket server of its own. */
export async function embeddedWorkerDatabases(count: number): Promise<WorkerDatabases> {
  const engines: { db: PGlite; server: PGLiteSocketServer }[] = [];
  const drop = async () => {
    for (const { db, server } of engines) {
      await server.stop();
      await db.close();
    }
  };
  try {
    for (let i = 0; i < count; i++) {
      const db = await PGlite.create({ extensions: EMBEDDED_EXTENSIONS });
      const port = await portToListenOn();
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 100 });
      await server.start();
      engines.push({ db, server });
    }
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    urls: engines.map(({ server }) => `postgres://postgres@${server.getServerConn()}/postgres`),
    drop,
  };
}
