import { Pool } from 'pg';
import {
  clientWithStatementDeadlines,
  QUERY_READ_TIMEOUT,
} from '../src/platform/database/statement-deadlines';
import { queryOpening } from '../src/platform/database/opening-statement';

/**
 * The pool's bound on every statement (src/platform/database/statement-deadlines.ts), against the
 * machine's PostgreSQL: a statement past the bound fails with pg's own timeout error and its
 * connection is not used again; one within it answers as pg answers, in every form pg takes.
 */
describe('statement deadlines', () => {
  let pool: Pool;
  beforeEach(() => {
    pool = new Pool({
      connectionString: process.env.DATABASE_URL,
      max: 2,
      Client: clientWithStatementDeadlines(300),
    });
  });
  afterEach(() => pool.end());

  it('fails a statement past the bound with Query read timeout, and the pool carries on', async () => {
    await expect(pool.query('SELECT pg_sleep(3)')).rejects.toThrow(QUERY_READ_TIMEOUT);
    // The pool closed the connection of the statement it gave up on: the next one is fresh.
    expect(pool.totalCount).toBe(0);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('answers in time in every form: promise, callback, values, a checked-out client', async () => {
    expect((await pool.query('SELECT $1::int AS n', [7])).rows).toEqual([{ n: 7 }]);
    const viaCallback = await new Promise((resolve, reject) =>
      pool.query('SELECT 2 AS n', (error, result) =>
        error ? reject(error) : resolve(result.rows),
      ),
    );
    expect(viaCallback).toEqual([{ n: 2 }]);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await expect(client.query('SELECT pg_sleep(3)')).rejects.toThrow(QUERY_READ_TIMEOUT);
    } finally {
      client.release(true);
    }
    const named = { name: 'deadline_named', text: 'SELECT $1::text AS t', values: ['x'] };
    expect((await pool.query(named)).rows).toEqual([{ t: 'x' }]);
    const withOwnCallback = await pool.connect();
    try {
      const rows = await new Promise((resolve, reject) =>
        withOwnCallback.query({
          text: 'SELECT 3 AS n',
          callback: (error: Error | null, result: { rows: unknown[] }) =>
            error ? reject(error) : resolve(result.rows),
        } as never),
      );
      expect(rows).toEqual([{ n: 3 }]);
    } finally {
      withOwnCallback.release();
    }
  });

  it("bounds a transaction's first statement, sent with the statements that open it", async () => {
    const client = await pool.connect();
    try {
      await expect(
        queryOpening(client, ['BEGIN'], { text: 'SELECT pg_sleep(3)', values: [] }),
      ).rejects.toThrow(QUERY_READ_TIMEOUT);
    } finally {
      client.release(true);
    }
    // One that answers in time gets its own rows.
    const fresh = await pool.connect();
    try {
      const answer = await queryOpening(fresh, ['BEGIN'], { text: 'SELECT 4 AS n', values: [] });
      expect(answer.rows).toEqual([{ n: 4 }]);
    } finally {
      fresh.release(true);
    }
  });

  it('tells a caller once: a late answer after the timeout is dropped', async () => {
    const calls: (Error | null)[] = [];
    await new Promise<void>((resolve) =>
      pool.query('SELECT pg_sleep(0.6)', (error) => {
        calls.push(error);
        resolve();
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(calls.map((error) => error?.message)).toEqual([QUERY_READ_TIMEOUT]);
  });
});
