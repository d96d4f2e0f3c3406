import { DataSource } from 'typeorm';
import { SqlStatement, SqlStatements } from '../src/platform/database/sql-statements';
import { startTestApp, TestApp } from './support/test-app';

const INSERT: SqlStatement = {
  name: 'probe_insert',
  text: 'INSERT INTO sql_statements_probe (n) VALUES ($1)',
};
const COUNT: SqlStatement = { name: 'probe_select', text: 'SELECT n FROM sql_statements_probe' };

/**
 * What a transaction leaves for its commit (SqlStatements.queryAtCommit: the events, an idempotent
 * response) goes with COMMIT in one round trip, against the machine's PostgreSQL: it is part of the
 * transaction all the same, so its failure keeps nothing of it, and a transaction that fails before
 * its commit never sends it.
 */
describe('statements left for the commit', () => {
  let t: TestApp;
  let sql: SqlStatements;
  let dataSource: DataSource;
  const kept = async () =>
    (await dataSource.query<{ n: number }[]>('SELECT n FROM sql_statements_probe ORDER BY n')).map(
      ({ n }) => n,
    );

  beforeAll(async () => {
    t = await startTestApp();
    sql = t.app.get(SqlStatements);
    dataSource = t.dataSource;
    await dataSource.query('CREATE TABLE sql_statements_probe (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await dataSource.query('DROP TABLE IF EXISTS sql_statements_probe');
    await t.close();
  });
  beforeEach(() => dataSource.query('TRUNCATE sql_statements_probe'));

  it('commits them with the transaction, in the order left', async () => {
    await sql.transaction(async () => {
      await sql.query(INSERT, [1]);
      await sql.queryAtCommit(INSERT, [2]);
      await sql.queryAtCommit(INSERT, [3]);
      // Not sent yet: the transaction's own statements see nothing of them.
      expect(await sql.query(COUNT, [])).toEqual([{ n: 1 }]);
    });
    expect(await kept()).toEqual([1, 2, 3]);
  });

  it('keeps nothing of the transaction when one of them fails, and throws its error', async () => {
    await expect(
      sql.transaction(async () => {
        await sql.query(INSERT, [1]);
        await sql.queryAtCommit(INSERT, [2]);
        await sql.queryAtCommit(INSERT, [1]); // a duplicate key
        await sql.queryAtCommit(INSERT, [3]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await kept()).toEqual([]);
    // The connections are usable afterwards.
    await sql.transaction(() => sql.queryAtCommit(INSERT, [4]));
    expect(await kept()).toEqual([4]);
  });

  it('never sends them when the work fails before the commit', async () => {
    await expect(
      sql.transaction(async () => {
        await sql.queryAtCommit(INSERT, [1]);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await kept()).toEqual([]);
  });

  it('joins them to a transaction under way, not to a nested one', async () => {
    await expect(
      sql.transaction(async () => {
        await sql.transaction(() => sql.queryAtCommit(INSERT, [1]));
        // The inner transaction joined the outer one: its statement waits for the outer commit.
        expect(await sql.query(COUNT, [])).toEqual([]);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await kept()).toEqual([]);
  });

  it('runs one at once outside a transaction', async () => {
    await sql.queryAtCommit(INSERT, [5]);
    expect(await kept()).toEqual([5]);
  });
});
