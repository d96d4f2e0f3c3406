import { DataSource, MigrationExecutor } from 'typeorm';

/**
 * Key of the advisory lock migrations run under: any number, the same in every instance of this
 * service (`SELECT pg_advisory_xact_lock(...)` shows it in pg_locks as objid 2026112301).
 */
export const MIGRATIONS_LOCK_KEY = 2026112301;

/**
 * Applies the pending migrations under a PostgreSQL advisory lock, in one transaction, so that any
 * number of instances may start at once on a fresh database: the first applies the schema, the
 * others wait for it and then find nothing pending. The lock is transaction-scoped, which holds
 * through a transaction-mode pooler as well as on a direct connection.
 */
export async function runMigrationsExclusively(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATIONS_LOCK_KEY]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'all';
    await executor.executePendingMigrations();
    await runner.commitTransaction();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
}
