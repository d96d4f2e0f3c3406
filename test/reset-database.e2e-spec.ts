import { apiClient } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * The reset every spec uses between tests finds its tables in the catalogue: a feature's new
 * table, even one that references pets, is emptied with no edit to the test support.
 */
describe('resetDatabase', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dataSource.query(
      'CREATE TABLE reset_probe (pet_id bigint NOT NULL REFERENCES pets (id), note text)',
    );
  });
  afterAll(async () => {
    await t.dataSource.query('DROP TABLE IF EXISTS reset_probe');
    await t.close();
  });

  it("empties a new feature's table that references pets, and the pets, keeping the keys", async () => {
    const api = apiClient(t.url, t.auth);
    const created = await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    await t.dataSource.query('INSERT INTO reset_probe (pet_id, note) VALUES ($1, $2)', [
      created.body.id,
      'first shot',
    ]);

    await resetDatabase(t.dataSource);

    const [{ probes, pets }] = await t.dataSource.query(
      'SELECT (SELECT count(*) FROM reset_probe)::int AS probes, (SELECT count(*) FROM pets)::int AS pets',
    );
    expect({ probes, pets }).toEqual({ probes: 0, pets: 0 });
    // The key the spec issued once still works.
    expect((await api.get('/v1/pets?limit=1')).status).toBe(200);
  });

  // It truncates only the tables written since the last reset: one that holds no row but whose
  // sequence moved, or that was analysed, is written too.
  it('starts ids again where only a sequence moved, and forgets statistics taken of an empty table', async () => {
    await resetDatabase(t.dataSource);
    await t.dataSource.query("SELECT nextval(pg_get_serial_sequence('imports', 'id'))");
    await t.dataSource.query('ANALYZE questionnaires');

    await resetDatabase(t.dataSource);

    const [{ next, reltuples }] = await t.dataSource.query(
      `SELECT nextval(pg_get_serial_sequence('imports', 'id'))::int AS next,
              (SELECT reltuples FROM pg_class WHERE relname = 'questionnaires') AS reltuples`,
    );
    // As after TRUNCATE … RESTART IDENTITY: the first id again, and never analysed.
    expect({ next, reltuples }).toEqual({ next: 1, reltuples: -1 });
  });
});
