import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
 * The file in DATA_DIR where a running service writes its engine's loopback address, so that a
 * command line (npm run apikey) reaches the engine through the service instead of opening the
 * files a second time.
 */
const ADDRESS_FILE = 'engine.url';

/**
 * The address at which the process holding `dataDir` serves its embedded engine, or null when it
 * wrote none (it is still starting, or it died).
 */
export function runningEngineUrl(dataDir: string): string | null {
  try {
    const url = readFileSync(join(resolve(dataDir), ADDRESS_FILE), 'utf8').trim();
    return /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/.test(url) ? url : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

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
    private readonly addressFile?: string,
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
      const url = `postgres://postgres@${server.getServerConn()}/postgres`;
      // Only this process's own user may read where its engine listens.
      const addressFile = location && join(resolve(dataDir!), ADDRESS_FILE);
      if (addressFile) writeFileSync(addressFile, url, { mode: 0o600 });
      return new EmbeddedPostgres(db, server, url, lock, addressFile);
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  async stop(): Promise<void> {
    if (this.addressFile && runningEngineUrl(resolve(this.addressFile, '..')) === this.url) {
      unlinkSync(this.addressFile);
    }
    await this.server.stop();
    await this.db.close();
    this.lock?.release();
  }
}
