import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, MigrationInterface } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseEndpoint } from './database-endpoint';
import { runMigrationsExclusively } from './migrations-runner';
import { SqlStatements } from './sql-statements';
import { poolClient } from './pool-client';

@Module({
  providers: [
    { provide: DatabaseEndpoint, inject: [AppConfig], useFactory: DatabaseEndpoint.resolve },
  ],
  exports: [DatabaseEndpoint],
})
class DatabaseEndpointModule {}

/**
 * The database, for every module: TypeORM's data source on PostgreSQL or the embedded engine, the
 * hot-statement runner, and the application's migrations, applied under a lock at start-up.
 */
@Module({})
export class DatabaseModule {
  /** `migrations`: every table's, in order, as the application's wiring lists them. */
  static forRoot(migrations: (new () => MigrationInterface)[]): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        DatabaseEndpointModule,
        TypeOrmModule.forRootAsync({
          imports: [DatabaseEndpointModule],
          inject: [AppConfig, DatabaseEndpoint],
          useFactory: (config: AppConfig, endpoint: DatabaseEndpoint) => ({
            type: 'postgres' as const,
            url: endpoint.url,
            autoLoadEntities: true,
            migrations,
            migrationsRun: config.database.runMigrations,
            synchronize: false,
            // A single attempt: the service starts (or fails) promptly and recovers from
            // outages per request, through the pool.
            retryAttempts: 0,
            extra: {
              // PGlite has one session and runs one query at a time: a single connection loses no
              // throughput, and several stalled on concurrent transactions (docs/adr/0003).
              max: endpoint.isEmbedded ? 1 : config.database.poolSize,
              // An outage must turn into a prompt 503, never an endless wait.
              connectionTimeoutMillis: config.database.connectTimeoutMs,
              // Every statement is bounded here, in the client, whatever sits on the way (a
              // pooler, a broken network); the server bounds those of the service's transactions
              // itself (SqlStatements). No statement_timeout startup parameter: a transaction-mode
              // pooler refuses the connection over it (docs/adr/0019). One sweep bounds them all,
              // as pg's query_timeout would, without its timer per statement (statement-deadlines).
              // A connection's loss is always heard (pool-client).
              Client: poolClient(config.database.statementTimeoutMs + 1000),
              idleTimeoutMillis: 30_000,
              // A connection sends a statement without waiting for the one before it to be
              // answered: what a transaction leaves for its commit goes with COMMIT, in one round
              // trip (SqlStatements). Statements sent one after another behave as without it.
              pipeline: true,
            },
          }),
          // TypeORM would run the migrations as it initialises, unguarded: they run here, under a lock.
          dataSourceFactory: async (options) => {
            const { migrationsRun, ...rest } = options!;
            const dataSource = await new DataSource({ ...rest, migrationsRun: false }).initialize();
            if (migrationsRun) await runMigrationsExclusively(dataSource);
            return dataSource;
          },
        }),
      ],
      providers: [SqlStatements],
      exports: [DatabaseEndpointModule, SqlStatements],
    };
  }
}
