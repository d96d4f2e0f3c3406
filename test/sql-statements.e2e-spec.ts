import { Socket } from 'node:net';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SqlStatement, SqlStatements } from '../src/platform/database/sql-statements';
import { FreshDatabase, freshDatabase } from './support/fresh-database';
import { startTestApp, TestApp } from './support/test-app';

// A run on the embedded engine starts a PostgreSQL server for this file: a lock needs two sessions.
jest.setTimeout(120_000);

const INSERT: SqlStatement = {
  name: 'probe_insert',
  text: 'INSERT INTO sql_statements_probe (n) VALUES ($1)',
};
const LOCK_TIMEOUT: SqlStatement = {
  name: 'probe_lock_timeout',
  text: "SET LOCAL lock_timeout = '100ms'",
  prepare: false,
};
const COUNT: SqlStatement = { name: 'probe_select', text: 'SELECT n FROM sql_statements_probe' };
const RETURNING: SqlStatement = {
  name: 'probe_insert_returning',
  text: 'INSERT INTO sql_statements_probe (n) VALUES ($1) RETURNING n',
};

/**
 * The writes while `work` runs to the connection that sent the probe's statements (every
 * statement of a transaction goes on its one connection): a round trip's messages go in one.
 * Writes to other sockets (the background jobs', a parallel file's) are not counted.
 */
async function writesDuring(work: () => Promise<unknown>): Promise<number> {
  type Writes = (...args: unknown[]) => void;
  const sockets = Socket.prototype as unknown as Record<'_writev' | '_write', Writes>;
  const writev = jest.spyOn(sockets, '_writev');
  const write = jest.spyOn(sockets, '_write');
  const text = (chunk: unknown) =>
    Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
  try {
    await work();
    const writes = [
      ...writev.mock.calls.map((call, i) => ({
        socket: writev.mock.contexts[i],
        // Each an entry { chunk, encoding }, or the chunk itself when all are buffers.
        data: (call[0] as unknown[])
          .map((entry) => text((entry as { chunk?: unknown }).chunk ?? entry))
          .join(''),
      })),
      ...write.mock.calls.map((call, i) => ({
        socket: write.mock.contexts[i],
        data: text(call[0]),
      })),
    ];
    const probes = new Set(
      writes.filter(({ data }) => data.includes('probe')).map((w) => w.socket),
    );
    return writes.filter(({ socket }) => probes.has(socket)).length;
  } finally {
    writev.mockRestore();
    write.mockRestore();
  }
}

/**
 * What a transaction leaves for its commit (SqlStatements.queryAtCommit: the events, an idempotent
 * response) goes with COMMIT in one round trip, and a joined transaction's lock goes ahead of the
 * statement after it, against a real PostgreSQL: both are part of the transaction all the same, so
 * a failure keeps nothing of it and is the error thrown, and a transaction that fails before its
 * commit never sends what it left for it.
 */
describe('statements sent without waiting', () => {
  let database: FreshDatabase;
  let t: TestApp;
  let sql: SqlStatements;
  let dataSource: DataSource;
  const kept = async () =>
    (await dataSource.query<{ n: number }[]>('SELECT n FROM sql_statements_probe ORDER BY n')).map(
      ({ n }) => n,
    );

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '10' });
    sql = t.app.get(SqlStatements);
    dataSource = t.dataSource;
    await dataSource.query('CREATE TABLE sql_statements_probe (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
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

  it('sends nothing, not even BEGIN, for a transaction whose work runs no statement', async () => {
    const sent = jest.spyOn(Client.prototype, 'query');
    try {
      await expect(sql.transaction(async () => 'nothing to do')).resolves.toBe('nothing to do');
      await expect(
        sql.transaction(() => Promise.reject(new Error('failed before any statement'))),
      ).rejects.toThrow('failed before any statement');
      expect(sent).not.toHaveBeenCalled();
    } finally {
      sent.mockRestore();
    }
  });

  it('runs one at once outside a transaction', async () => {
    await sql.queryAtCommit(INSERT, [5]);
    expect(await kept()).toEqual([5]);
  });

  it("sends a joined transaction's lock ahead of the next statement, and throws its failure", async () => {
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(7, 9)');
      await expect(
        sql.transaction(async () => {
          await sql.query(LOCK_TIMEOUT, []);
          await sql.transaction(() => sql.query(INSERT, [1]), [7, 9]);
        }),
      ).rejects.toMatchObject({ code: '55P03' }); // lock_not_available, not the INSERT's 25P02
      expect(await kept()).toEqual([]);
      await holder.query('SELECT pg_advisory_unlock(7, 9)');
      await sql.transaction(async () => {
        await sql.transaction(() => sql.query(INSERT, [2]), [7, 9]);
      });
      expect(await kept()).toEqual([2]);
    } finally {
      await holder.end();
    }
  });

  describe('issued together', () => {
    it("go with the transaction's opening in one write, each answered with its own rows", async () => {
      let answers: unknown[] = [];
      const writes = await writesDuring(() =>
        sql.transaction(async () => {
          answers = await sql.together(() =>
            Promise.all([
              sql.query(RETURNING, [1]),
              sql.query(RETURNING, [2]),
              sql.query(COUNT, []),
            ]),
          );
          await sql.queryAtCommit(INSERT, [3]);
        }),
      );
      expect(answers).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 1 }, { n: 2 }]]);
      // The statements with the opening, then the one left for the commit with COMMIT.
      expect(writes).toBe(2);
      expect(await kept()).toEqual([1, 2, 3]);
    });

    it('fail after a failed one with its error, and the transaction keeps nothing', async () => {
      let outcomes: PromiseSettledResult<unknown>[] = [];
      await expect(
        sql.transaction(async () => {
          outcomes = await sql.together(() =>
            Promise.allSettled([
              sql.query(RETURNING, [1]),
              sql.query(RETURNING, [1]), // a duplicate key
              sql.query(RETURNING, [2]),
            ]),
          );
          await sql.query(COUNT, []);
        }),
      ).rejects.toMatchObject({ code: '23505' }); // the cause, again: not the abort's 25P02
      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        'fulfilled',
        'rejected',
        'rejected',
      ]);
      for (const outcome of outcomes.slice(1)) {
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
      }
      expect(await kept()).toEqual([]);
    });

    it('go one after the other in a transaction already opened, in one write', async () => {
      let answers: unknown[] = [];
      await sql.transaction(async () => {
        await sql.query(INSERT, [1]);
        const writes = await writesDuring(async () => {
          answers = await sql.together(() =>
            Promise.all([sql.query(RETURNING, [2]), sql.query(COUNT, [])]),
          );
        });
        expect(writes).toBe(1);
      });
      expect(answers).toEqual([[{ n: 2 }], [{ n: 1 }, { n: 2 }]]);
      expect(await kept()).toEqual([1, 2]);
    });

    it('parse one after the first in place when it is not prepared on the connection yet', async () => {
      const fresh: SqlStatement = { name: 'probe_insert_fresh', text: RETURNING.text };
      for (let n = 1; n <= 3; n++) {
        let answers: unknown[] = [];
        const writes = await writesDuring(async () => {
          answers = await sql.transaction(() =>
            sql.together(() => Promise.all([sql.query(COUNT, []), sql.query(fresh, [n])])),
          );
        });
        expect(answers[1]).toEqual([{ n }]);
        expect(writes).toBe(2); // the statements with the opening; COMMIT
      }
      expect(await kept()).toEqual([1, 2, 3]);
    });

    it("throw a failure nobody awaited (a joined transaction's lock, gathered last) at the next statement", async () => {
      const holder = new Client({ connectionString: database.url });
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock(7, 10)');
        await expect(
          sql.transaction(async () => {
            await sql.query(LOCK_TIMEOUT, []);
            await sql.together(() =>
              Promise.all([sql.query(INSERT, [1]), sql.transaction(async () => 0, [7, 10])]),
            );
            await sql.query(INSERT, [2]);
          }),
        ).rejects.toMatchObject({ code: '55P03' }); // lock_not_available, not the INSERT's 25P02
        expect(await kept()).toEqual([]);
      } finally {
        await holder.end();
      }
    });

    it('run as usual outside a transaction', async () => {
      const answers = await sql.together(() =>
        Promise.all([sql.query(RETURNING, [1]), sql.query(RETURNING, [2])]),
      );
      expect(answers).toEqual([[{ n: 1 }], [{ n: 2 }]]);
    });
  });
});
