import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * With DATABASE_URL set, the e2e suite runs against that PostgreSQL. Without it, one in-memory
 * embedded engine is started here, once per run: PGlite cannot start inside a Jest worker.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 100 });
  await server.start();
  process.env.DATABASE_URL = `postgres://postgres@${server.getServerConn()}/postgres`;
  // As the service does with its own embedded engine: one connection (docs/adr/0003), and
  // unnamed statements, since every connection to it shares one session (docs/adr/0008).
  process.env.DATABASE_POOL_SIZE ??= '1';
  process.env.DATABASE_PREPARED_STATEMENTS ??= 'false';
  (
    globalThis as { embeddedPostgres?: { db: PGlite; server: PGLiteSocketServer } }
  ).embeddedPostgres = {
    db,
    server,
  };
}
