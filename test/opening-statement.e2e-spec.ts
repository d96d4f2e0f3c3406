import { Client } from 'pg';
import { queryOpening, queryOpeningAll } from '../src/platform/database/opening-statement';
import { FreshDatabase, freshDatabase } from './support/fresh-database';

// A run on the embedded engine starts a PostgreSQL server for this file.
jest.setTimeout(120_000);

const INSERT = {
  name: 'opening_probe_insert',
  text: 'INSERT INTO opening_probe (n) VALUES ($1) RETURNING n',
};

/**
 * A transaction's first statement goes with the statements that open it, under one Sync
 * (src/platform/database/opening-statement.ts), against a real PostgreSQL in pg's pipeline mode:
 * the statement's answer is its own, and a failure in the opening keeps it from running at all.
 * With a Sync after each statement, as pg sends them, the statement would run and commit alone.
 */
describe("a transaction's first statement with its opening", () => {
  let database: FreshDatabase;
  let client: Client;
  const kept = async () =>
    (await client.query<{ n: number }>('SELECT n FROM opening_probe ORDER BY n')).rows.map(
      ({ n }) => n,
    );

  beforeAll(async () => {
    database = await freshDatabase();
    client = new Client({ connectionString: database.url, pipeline: true } as never);
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });
  beforeEach(async () => {
    // A test that failed midway may have left its transaction open.
    await client.query('ROLLBACK');
    await client.query('DROP TABLE IF EXISTS opening_probe');
    await client.query('CREATE TABLE opening_probe (n int PRIMARY KEY)');
  });

  it("answers with the statement's own rows, inside the transaction the opening began", async () => {
    const answer = await queryOpening(
      client,
      ['BEGIN', 'SET LOCAL statement_timeout = 5000', 'SELECT pg_advisory_xact_lock(1, 2)'],
      { ...INSERT, values: [1] },
    );
    expect(answer.rows).toEqual([{ n: 1 }]);
    expect(answer.command).toBe('INSERT');
    expect(client.getTransactionStatus()).toBe('T');
    await client.query('ROLLBACK');
    expect(await kept()).toEqual([]);
  });

  it('never runs the statement when the opening fails, and throws the opening’s error', async () => {
    // A failure before any BEGIN took effect, as a BEGIN that failed would leave the session.
    await expect(
      queryOpening(client, ['SELECT 1 / 0', 'BEGIN'], { ...INSERT, values: [1] }),
    ).rejects.toMatchObject({ code: '22012' });
    // pg rejects on the error, before the server says where the session stands: asked after.
    await client.query('SELECT 1');
    expect(client.getTransactionStatus()).toBe('I');
    expect(await kept()).toEqual([]);
    // Inside the transaction, a failure after BEGIN aborts it: the statement does not run either.
    await expect(
      queryOpening(client, ['BEGIN', 'SELECT 1 / 0'], { ...INSERT, values: [2] }),
    ).rejects.toMatchObject({ code: '22012' });
    await expect(client.query('SELECT 1')).rejects.toMatchObject({ code: '25P02' });
    await client.query('ROLLBACK');
    expect(await kept()).toEqual([]);
  });

  it('prepares a named statement again when its first Parse failed', async () => {
    const missing = { name: 'opening_probe_missing', text: 'SELECT n FROM opening_probe_later' };
    await expect(queryOpening(client, ['BEGIN'], { ...missing, values: [] })).rejects.toMatchObject(
      { code: '42P01' },
    );
    await client.query('ROLLBACK');
    await client.query('CREATE TABLE opening_probe_later (n int)');
    try {
      // Parsed this time (pg did not count the opening's ParseComplete as the statement's), and
      // once prepared, used again without a second Parse (which would fail with 42P05).
      for (let i = 0; i < 2; i++) {
        await queryOpening(client, ['BEGIN'], { ...missing, values: [] });
        await client.query('COMMIT');
      }
    } finally {
      await client.query('DROP TABLE opening_probe_later');
    }
  });

  it('takes a statement without values in the extended protocol, under the same Sync', async () => {
    await expect(
      queryOpening(client, ['SELECT 1 / 0'], { text: 'INSERT INTO opening_probe VALUES (3)' }),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await kept()).toEqual([]);
  });

  it('answers each statement that follows under the same Sync with its own rows', async () => {
    const outcomes = await queryOpeningAll(
      client,
      ['BEGIN', 'SELECT pg_advisory_xact_lock(1, 2)'],
      [
        { ...INSERT, values: [1] },
        { text: 'INSERT INTO opening_probe (n) VALUES ($1), ($2) RETURNING n', values: [2, 3] },
        { text: 'SELECT count(*)::int AS "count" FROM opening_probe' },
      ],
    );
    expect(outcomes.map((outcome) => 'result' in outcome && outcome.result.rows)).toEqual([
      [{ n: 1 }],
      [{ n: 2 }, { n: 3 }],
      [{ count: 3 }],
    ]);
    expect(client.getTransactionStatus()).toBe('T');
    await client.query('COMMIT');
    expect(await kept()).toEqual([1, 2, 3]);
  });

  it('fails every statement from the one that failed on, and runs none after it', async () => {
    const outcomes = await queryOpeningAll(
      client,
      ['BEGIN'],
      [
        { ...INSERT, values: [1] },
        { text: 'INSERT INTO opening_probe (n) VALUES ($1)', values: [1] }, // a duplicate key
        { text: 'INSERT INTO opening_probe (n) VALUES ($1)', values: [2] },
      ],
    );
    expect(outcomes[0]).toMatchObject({ result: { rows: [{ n: 1 }] } });
    expect(outcomes.slice(1)).toMatchObject([
      { error: { code: '23505' } },
      { error: { code: '23505' } },
    ]);
    await client.query('ROLLBACK');
    // The opening failing runs none of them, outside any transaction either.
    const unopened = await queryOpeningAll(
      client,
      ['SELECT 1 / 0', 'BEGIN'],
      [
        { ...INSERT, values: [4] },
        { text: 'INSERT INTO opening_probe (n) VALUES ($1)', values: [5] },
      ],
    );
    expect(unopened).toMatchObject([{ error: { code: '22012' } }, { error: { code: '22012' } }]);
    await client.query('SELECT 1');
    expect(client.getTransactionStatus()).toBe('I');
    expect(await kept()).toEqual([]);
  });
});
