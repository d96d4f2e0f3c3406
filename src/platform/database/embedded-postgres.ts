import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DataDirLock } from './data-dir-lock';

/**
 * The extensions the migrations create, loaded into every embedded engine (the service's and the
 * tests'), so that it runs the same migrations as a PostgreSQL server: pg_trgm for the name
 * searches, cube for the distance searches.
 */
export const EMBEDDED_EXTENSIONS = { pg_trgm, cube };

/**
 * A real PostgreSQL engine (PGlite) inside the process, served over the PostgreSQL wire
 * protocol on loopback, so that the ordinary `pg` driver, TypeORM and the same migrations
 * work unchanged. Meant for a first run and for tests, not for production load.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
    private readonly lock?: DataDirLock,
  ) {}

  /**
   * @param dataDir where the files live; `undefined` keeps everything in memory.
   * @param maxConnections at least the pool size: the server refuses connections beyond it.
   */
  static async start(
    dataDir: string | undefined,
    maxConnections: number,
  ): Promise<EmbeddedPostgres> {
    let location: string | undefined;
    let lock: DataDirLock | undefined;
    if (dataDir !== undefined) {
      // PGlite creates its own folder but not the folders above it.
      mkdirSync(resolve(dataDir), { recursive: true });
      // One process per directory: PGlite keeps the database in memory and writes it back.
      lock = DataDirLock.acquire(dataDir);
      location = resolve(dataDir, 'pgdata');
    }
    try {
      const db = await PGlite.create(location, { extensions: EMBEDDED_EXTENSIONS });
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
      await server.start();
      return new EmbeddedPostgres(
        db,
        server,
        `postgres://postgres@${server.getServerConn()}/postgres`,
        lock,
      );
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
    this.lock?.release();
  }
}
