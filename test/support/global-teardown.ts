import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export default async function globalTeardown(): Promise<void> {
  const embedded = (globalThis as { embeddedPostgres?: { db: PGlite; server: PGLiteSocketServer } })
    .embeddedPostgres;
  if (!embedded) return;
  await embedded.server.stop();
  await embedded.db.close();
}
