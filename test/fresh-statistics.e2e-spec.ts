import { OrganizationsPlannedAsNew1795240157000 } from '../src/organizations/infrastructure/migrations/1795240157000-organizations-planned-as-new';
import { freshDatabase, FreshDatabase } from './support/fresh-database';
import { request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

/**
 * A fresh database leaves the migrations with every table as PostgreSQL plans a new one, never
 * vacuumed (docs/adr/0050, addendum): the plans prepared statements keep from the first minutes
 * then read by index however the tables grow (test/unanalysed-plans replays them). The migration
 * that resets the organisations' statistics empties tables to do so, so it must act on a fresh
 * database alone.
 */
jest.setTimeout(60_000);

const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';

describe('the statistics a fresh database starts with', () => {
  let database: FreshDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ DATABASE_URL: database.url, ADMIN_TOKEN });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const statistics = async (table: string) =>
    (
      await t.dataSource.query(
        'SELECT relpages, reltuples FROM pg_class WHERE oid = $1::regclass',
        [table],
      )
    )[0] as { relpages: number; reltuples: number };

  it('are none: every table is planned as never vacuumed', async () => {
    // Statistics autovacuum records later (where it runs) are the table's real size: not these.
    const recorded = await t.dataSource.query(
      `SELECT c.relname, c.relpages, c.reltuples FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_stat_user_tables s ON s.relid = c.oid
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.reltuples >= 0
          AND s.last_autovacuum IS NULL AND s.last_autoanalyze IS NULL`,
    );
    expect(recorded).toEqual([]);
  });

  it('keep the house organisation as it was, and the next organisation numbered 2', async () => {
    const [house] = await t.dataSource.query(
      'SELECT id, name, name_key, version FROM organizations',
    );
    expect(house).toEqual({
      id: '1',
      name: 'The Pet Store',
      name_key: 'the pet store',
      version: 1,
    });
    const created = await request(t.url)
      .post('/admin/organizations')
      .set({ authorization: `Bearer ${ADMIN_TOKEN}` })
      .send({
        name: 'Second Shelter',
        email: 'adopt@second.example',
        address: { city: 'Leeds', country: 'GB' },
      });
    expect(created.status).toBe(201);
    expect(created.body.id).toBe(2);
  });

  it('are left alone, rows and all, wherever the database holds more than the migrations wrote', async () => {
    // A second organisation, then a key alone: run again, the migration finds no fresh database.
    await t.issueKey();
    await t.dataSource.query('ANALYZE organizations');
    const before = await statistics('organizations');
    const keys = await t.dataSource.query('SELECT count(*)::int AS n FROM api_keys');
    // One connection throughout: the embedded engine's pool has one.
    const runner = t.dataSource.createQueryRunner();
    try {
      await new OrganizationsPlannedAsNew1795240157000().up(runner);
      await runner.query('DELETE FROM organizations WHERE id > 1');
      await new OrganizationsPlannedAsNew1795240157000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await statistics('organizations')).toEqual(before);
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM api_keys')).toEqual(keys);
    expect(keys[0].n).toBeGreaterThan(0);
  });
});
