import { Client } from 'pg';
import { CLAIM, COMPLETE, LOCK_ENDPOINTS } from '../src/webhooks/infrastructure/sql-delivery-queue';
import { WebhookWorker } from '../src/webhooks/infrastructure/webhook-worker';
import { freshDatabase, FreshDatabase } from './support/fresh-database';
import { nodesOf, PlanNode, rowsExamined, rowsRead } from './support/query-plans';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The claim's plan needs no statistics (docs/adr/0050, as for the listings). The claim is a
 * prepared statement: after a few runs PostgreSQL keeps one generic plan for it, made on the
 * tables as they were, small when the service started, and never analysed on a machine without
 * autovacuum. That plan must still read a handful of deliveries per delivery it claims when the
 * backlog has grown to thousands: a plan that reads every due delivery slowed the drain of a
 * 100,000-delivery backlog from over 1,000 deliveries a second to about 126 (docs/performance.md,
 * round ten).
 */
jest.setTimeout(120_000);

const ENDPOINTS = 5;
const EVENTS = 4_000;
const PER_ENDPOINT = 4;

describe('the webhook claim on tables never analysed', () => {
  let database: FreshDatabase;
  let t: TestApp;
  let session: Client;

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ DATABASE_URL: database.url });
    // The deliveries below are this test's to claim.
    await t.app.get(WebhookWorker).onApplicationShutdown();
    for (const table of ['events', 'webhook_endpoints', 'webhook_deliveries']) {
      await t.dataSource.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    }
    session = new Client({ connectionString: database.url });
    await session.connect();
    // The completion's statements planned once on the empty tables, and kept (see below).
    await session.query('SET plan_cache_mode = force_generic_plan');
    await session.query(`PREPARE lock_endpoints AS ${LOCK_ENDPOINTS.text}`);
    await session.query(`PREPARE complete AS ${COMPLETE.text}`);
    await session.query("EXECUTE lock_endpoints('{}')");
    await session.query(
      "EXECUTE complete(0, 1, 'succeeded', NULL, 200, NULL, 5, false, now(), 120)",
    );
  });
  afterAll(async () => {
    await session?.end();
    await t?.close();
    await database?.drop();
  });

  /** The claim's values: nothing held, room for 64 deliveries, at most 4 per endpoint. */
  const claim = (explain = '') =>
    session.query(
      `${explain} EXECUTE claim(64, ${PER_ENDPOINT}, '{}', 30, '{}', '{}', '{}', '{}', 64)`,
    );

  it('reads a few rows per delivery it claims, whatever the backlog, with the plan kept from when the tables were empty', async () => {
    await session.query('SET plan_cache_mode = force_generic_plan');
    await session.query(`PREPARE claim AS ${CLAIM.text}`);
    // The generic plan is made at the first run, on the empty tables, and kept.
    expect((await claim()).rows).toEqual([]);

    // A backlog as one fan-out makes it: each endpoint's deliveries due at one instant.
    await t.dataSource.query(
      `INSERT INTO webhook_endpoints (owner_key_id, url, events, secret)
       SELECT 1, 'https://receiver-' || n || '.example/hooks', '{*}', 'whsec_plan'
         FROM generate_series(1, ${ENDPOINTS}) AS n`,
    );
    await t.dataSource.query(
      `INSERT INTO events (type, readers, read_scope, organization_id, data)
       SELECT 'pet.updated', 'everyone', 'pets:read', 1, '{}' FROM generate_series(1, ${EVENTS})`,
    );
    await t.dataSource.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id)
       SELECT e.id, w.id FROM events e CROSS JOIN webhook_endpoints w`,
    );

    await session.query('BEGIN');
    try {
      const [{ 'QUERY PLAN': plan }] = (await claim('EXPLAIN (ANALYZE, FORMAT JSON)')).rows;
      const root = plan[0].Plan as PlanNode;
      const claimed = nodesOf(root).find((node) => node['Node Type'] === 'ModifyTable')![
        'Actual Rows'
      ];
      const read = rowsRead(root, 'webhook_deliveries');
      // Every endpoint's share, of the 20,000 due.
      expect(claimed).toBe(ENDPOINTS * PER_ENDPOINT);
      // Each endpoint found once, its first deliveries, each locked and leased: about 90 rows.
      // The statement before read every due delivery, more than once (67,045 rows here).
      expect(read).toBeLessThanOrEqual(10 * claimed!);
    } finally {
      await session.query('ROLLBACK');
    }
  });

  it("records outcomes by probes too: the endpoints' locks and each outcome read a few rows", async () => {
    // Run after the claim's: the backlog is there, and these plans were made on the empty tables.
    const [{ endpoints, deliveries }] = (
      await session.query(
        `SELECT array_agg(id ORDER BY id) AS endpoints,
                (SELECT array_agg(id) FROM (SELECT id FROM webhook_deliveries LIMIT 3) d)
                  AS deliveries
           FROM webhook_endpoints`,
      )
    ).rows;
    expect(deliveries).toHaveLength(3);
    const analysed = async (statement: string) => {
      const [{ 'QUERY PLAN': plan }] = (
        await session.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${statement}`)
      ).rows;
      return plan[0].Plan as PlanNode;
    };
    await session.query('BEGIN');
    try {
      // Two of the five, each once: a scan would look at all five, or at all five per endpoint.
      const locks = await analysed(`lock_endpoints('{${endpoints[1]},${endpoints[3]}}')`);
      expect(rowsExamined(locks, 'webhook_endpoints')).toBe(2);
      for (const delivery of deliveries) {
        // Its first attempt succeeded.
        const completion = await analysed(
          `complete(${delivery}, 0, 'succeeded', NULL, 200, NULL, 5, false, now(), 120)`,
        );
        expect(nodesOf(completion).some(({ 'Node Type': type }) => type === 'ModifyTable')).toBe(
          true,
        );
        // Its delivery by its id, updated, and its endpoint's row: never a scan of the backlog.
        expect(rowsExamined(completion, 'webhook_deliveries')).toBeLessThanOrEqual(2);
        expect(rowsExamined(completion, 'webhook_endpoints')).toBeLessThanOrEqual(1);
      }
    } finally {
      await session.query('ROLLBACK');
    }
  });
});
