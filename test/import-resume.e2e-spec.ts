import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { apiClient } from './support/http';
import { buildOnce, ServiceProcess, startService, stopService } from './support/service-process';

/**
 * An import whose instance is killed half-way resumes to the same counts (issue 47; docs/adr/0066):
 * a step's pets, their events and the import's progress commit together, so the batch the dead
 * instance was doing is done again by the next, once, and nothing before it twice. Real service
 * processes on one database, the first killed with SIGKILL: no shutdown hook runs.
 */
jest.setTimeout(60_000);

const ADMIN_TOKEN = 'import-resume-admin-token-0123456789abcdef';
/** Three batches (IMPORT_BATCH_ROWS): the kill lands after the first is committed, before the last. */
const ROWS = 1_500;

describe('an import whose instance is killed half-way', () => {
  let first: ServiceProcess | undefined;
  let second: ServiceProcess | undefined;
  let database: Client;

  beforeAll(async () => {
    buildOnce();
    database = new Client({ connectionString: process.env.DATABASE_URL });
    await database.connect();
  }, 120_000);
  afterAll(async () => {
    await stopService(first);
    await stopService(second);
    await database.end();
  });

  it('is resumed by another instance to the same counts: every row once, every pet one pet.created', async () => {
    first = await startService({ ADMIN_TOKEN });
    const admin = apiClient(first.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    // A shelter of its own: the worker's database may hold other files' pets.
    const shelter = await admin
      .post('/admin/organizations')
      .send({
        name: `Resume ${randomUUID().slice(0, 8)}`,
        email: 'adopt@resume.example',
        address: { city: 'Leeds', country: 'GB' },
      })
      .expect(201);
    const organizationId = shelter.body.id as number;
    const { key } = (
      await admin
        .post('/admin/api-keys')
        .send({
          name: 'resume',
          plan: 'enterprise',
          limits: { perMinute: 100_000, perDay: 1_000_000 },
          organizationId,
          scopes: ['pets:read', 'pets:write', 'pets:manage'],
        })
        .expect(201)
    ).body;
    const auth = { authorization: `Bearer ${key}` };

    const csv =
      'externalId,name,categoryId\n' +
      Array.from({ length: ROWS }, (_, i) => `R-${i + 1},Pet ${i + 1},1\n`).join('');
    const submitted = await apiClient(first.url, auth)
      .post('/v1/imports')
      .set('content-type', 'text/csv')
      .send(csv)
      .expect(202);
    const path = `/v1/imports/${submitted.body.id}`;

    // Killed once a batch is in, in the middle of a later one: while a step's transaction holds
    // the import's row (its xmax a running transaction's), looked at without taking it. The
    // embedded engine serves one connection's transaction at a time: there no one sees a step
    // under way, and the kill lands between two steps (or as the next begins).
    const embedded = process.env.TEST_EMBEDDED_DATABASE !== undefined;
    const importId = submitted.body.id as number;
    const held = async () =>
      (
        await database.query(
          `SELECT 1 FROM imports i JOIN pg_stat_activity a ON a.backend_xid = i.xmax
            WHERE i.id = $1`,
          [importId],
        )
      ).rowCount === 1;
    for (;;) {
      const read = (await apiClient(first.url, auth).get(path).expect(200)).body;
      expect(read.status).not.toMatch(/succeeded|failed/);
      if (read.rows.created > 0 && (embedded || (await held()))) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    // What the dead instance committed: whole batches, its progress saying each.
    const [left] = (
      await database.query(
        `SELECT i.created, i.status, (SELECT count(*)::int FROM pets WHERE organization_id = $2) AS pets
           FROM imports i WHERE i.id = $1`,
        [importId, organizationId],
      )
    ).rows;
    expect(left.status).toBe('running');
    expect(left.created).toBeGreaterThan(0);
    expect(left.created).toBeLessThan(ROWS);
    expect(left.pets).toBe(left.created);

    second = await startService({ ADMIN_TOKEN });
    let done;
    for (;;) {
      done = (await apiClient(second.url, auth).get(path).expect(200)).body;
      if (done.status === 'succeeded' || done.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(done).toMatchObject({
      status: 'succeeded',
      rows: { total: ROWS, created: ROWS, updated: 0, unchanged: 0, failed: 0 },
      errors: [],
    });
    const [{ pets, distinct }] = (
      await database.query(
        `SELECT count(*)::int AS pets, count(DISTINCT external_id)::int AS distinct
           FROM pets WHERE organization_id = $1`,
        [organizationId],
      )
    ).rows;
    expect({ pets, distinct }).toEqual({ pets: ROWS, distinct: ROWS });
    const events = (
      await database.query(
        `SELECT count(*)::int AS events, count(DISTINCT data->>'id')::int AS pets,
                count(*) FILTER (WHERE data->>'id' IS NULL)::int AS unnamed
           FROM events WHERE type = 'pet.created' AND organization_id = $1`,
        [organizationId],
      )
    ).rows[0];
    expect(events).toEqual({ events: ROWS, pets: ROWS, unnamed: 0 });
  });
});
