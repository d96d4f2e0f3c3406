import { Client } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { SqlStatement, SqlStatements } from '../src/platform/database/sql-statements';
import { ClaimedDelivery, DeliveryQueue } from '../src/webhooks/application/webhook-delivery';
import { FreshDatabase, freshDatabase } from './support/fresh-database';
import { apiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Deadlocks and serialization failures inside the service's own transactions are run again
 * (bounded) and never reach a client as a 500; the transactions take their locks in one order
 * (docs/adr/0046), so an endpoint's deletion and a delivery's completion no longer deadlock.
 * A database of its own: the statistics and locks of other files stay out.
 */
jest.setTimeout(120_000);

const BUMP: SqlStatement = {
  name: 'conflict_probe_bump',
  text: 'UPDATE conflict_probe SET n = n + 1 WHERE id = $1 RETURNING n',
};
const READ: SqlStatement = {
  name: 'conflict_probe_read',
  text: 'SELECT n FROM conflict_probe WHERE id = $1',
};
const REPEATABLE_READ: SqlStatement = {
  name: 'conflict_probe_isolation',
  text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ',
  prepare: false,
};

/** Resolves once `count` sessions of the database wait for a lock. */
async function waiting(t: TestApp, count: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const [{ n }] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (n >= count) return;
    await sleep(10);
  }
  throw new Error(`${count} sessions never waited for a lock.`);
}

describe('transaction conflicts', () => {
  let database: FreshDatabase;
  let t: TestApp;
  let sql: SqlStatements;

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '10',
      // The worker claims nothing here: the test completes its delivery itself.
      WEBHOOK_POLL_INTERVAL_MS: '60000',
    });
    sql = t.app.get(SqlStatements);
    await t.dataSource.query('CREATE TABLE conflict_probe (id int PRIMARY KEY, n int NOT NULL)');
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await t.dataSource.query('TRUNCATE conflict_probe');
    await t.dataSource.query('INSERT INTO conflict_probe VALUES (1, 0), (2, 0)');
  });

  it('runs again the side PostgreSQL ended for a deadlock: both commit, once each', async () => {
    const before = sql.retried;
    let runs = 0;
    let holding = 0;
    const bothHold = async () => {
      holding += 1;
      while (holding < 2) await sleep(5);
    };
    /** Locks `first`, waits until the other holds its own, then takes `second`: a cycle. */
    const crossing = (first: number, second: number) =>
      sql.transaction(async () => {
        runs += 1;
        await sql.query(BUMP, [first]);
        await bothHold();
        await sql.query(BUMP, [second]);
        return runs;
      });
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    // Three runs: one side ran twice, after PostgreSQL chose it as the deadlock's victim.
    expect(runs).toBe(3);
    expect(sql.retried - before).toBe(1);
    // Each committed once: every row bumped by both, and nothing of the ended run kept.
    expect(await t.dataSource.query('SELECT id, n FROM conflict_probe ORDER BY id')).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('runs again a transaction ended by a serialization failure (40001)', async () => {
    const other = new Client({ connectionString: database.url });
    await other.connect();
    try {
      let runs = 0;
      const n = await sql.transaction(async () => {
        runs += 1;
        await sql.query(REPEATABLE_READ, []);
        await sql.query(READ, [1]);
        // Only in the first run: another session changes the row after this snapshot.
        if (runs === 1) await other.query('UPDATE conflict_probe SET n = 10 WHERE id = 1');
        const [row] = await sql.query<{ n: number }>(BUMP, [1]);
        return row.n;
      });
      expect([runs, n]).toEqual([2, 11]);
    } finally {
      await other.end();
    }
  });

  it('gives up after three runs, with the error a client answer maps to 503', async () => {
    let runs = 0;
    const always = sql.transaction(async () => {
      runs += 1;
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    await expect(always).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(3);
  });

  it('an endpoint deleted while its delivery completes: no deadlock, no 500, the endpoint gone', async () => {
    const owner = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['pets:read', 'pets:write', 'webhooks:manage'] })).auth,
    );
    const endpoint = (
      await owner
        .post('/v1/webhook-endpoints')
        .send({ url: 'https://hooks.example/x', events: ['order.placed'] })
        .expect(201)
    ).body;
    await owner.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    // A delivery as a claim leaves it (its first attempt under way), not due for a day.
    const [delivery] = await t.dataSource.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, attempts, step, next_attempt_at)
       VALUES ((SELECT max(id) FROM events), $1, 1, 1, now() + interval '1 day') RETURNING id`,
      [endpoint.id],
    );
    const before = sql.retried;
    // Another session holds the endpoint, so that the deletion queues for it first, then the
    // completion: in the old order (delivery, then endpoint) the completion held the delivery the
    // deletion's cascade needs while waiting for the endpoint the deletion took.
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE', [
        endpoint.id,
      ]);
      const deletion = owner.delete(`/v1/webhook-endpoints/${endpoint.id}`).then((r) => r);
      await waiting(t, 1);
      const completion = t.app
        .get(DeliveryQueue)
        .complete(
          { id: Number(delivery.id), attempt: 1, endpoint: { id: endpoint.id } } as ClaimedDelivery,
          { responseStatus: 200, error: null, durationMs: 5 },
          { outcome: 'succeeded', retryInSeconds: null, gone: false },
          new Date(),
          120,
        );
      await waiting(t, 2);
      await holder.query('COMMIT');
      const [deleted] = await Promise.all([deletion, completion]);
      expect(deleted.status).toBe(204);
    } finally {
      await holder.end();
    }
    expect(sql.retried - before).toBe(0);
    expect(
      await t.dataSource.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [
        endpoint.id,
      ]),
    ).toEqual([]);
  });
});
