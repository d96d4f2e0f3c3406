import { Client } from 'pg';
import { databasePrefix } from './confinement';
import { PostgresServer } from './peers/postgres-server';

/** Names the databases of one test file apart, however fast they are asked for. */
let created = 0;

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * An empty database on a real PostgreSQL server, for what several instances do at once: a new
 * database on the run's server, or, when the run uses the embedded engine, a server of its own.
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  if (process.env.TEST_EMBEDDED_DATABASE) return freshServer();
  return freshDatabaseOn(process.env.DATABASE_URL!);
}

/** A new, empty database on the server `serverUrl` (a connection string to any of its databases). */
export async function freshDatabaseOn(serverUrl: string): Promise<FreshDatabase> {
  const name = `${databasePrefix()}_${process.pid}_${Date.now()}_${created++}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The embedded engine serves one session: a real, throw-away server stands in for it here. */
async function freshServer(): Promise<FreshDatabase> {
  if (!PostgresServer.available()) {
    throw new Error(
      'This test needs a PostgreSQL server: set DATABASE_URL, or install PostgreSQL (initdb).',
    );
  }
  const server = await PostgresServer.start();
  return { url: server.url, drop: () => server.stop() };
}
