import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { EmbeddedPostgres } from './embedded-postgres';

/**
 * Where the database is: the configured DATABASE_URL, or an embedded engine started on demand.
 */
@Injectable()
export class DatabaseEndpoint implements OnApplicationShutdown {
  private static readonly logger = new Logger('Database');
  private embedded?: EmbeddedPostgres;

  private constructor(readonly url: string) {}

  static async resolve(config: AppConfig): Promise<DatabaseEndpoint> {
    if (config.database.url) return new DatabaseEndpoint(config.database.url);
    DatabaseEndpoint.logger.log(
      `No DATABASE_URL: using the embedded PostgreSQL in ${config.database.dataDir}`,
    );
    // The pool has one connection to it; spares so that a replaced connection is never refused,
    // and for `npm run apikey`, which reaches the engine through its address while this serves.
    const embedded = await EmbeddedPostgres.start(config.database.dataDir, 6);
    const endpoint = new DatabaseEndpoint(embedded.url);
    endpoint.embedded = embedded;
    return endpoint;
  }

  get isEmbedded(): boolean {
    return this.embedded !== undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.embedded?.stop();
  }
}
