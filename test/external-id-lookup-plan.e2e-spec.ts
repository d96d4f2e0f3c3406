import { Client } from 'pg';
import { FIND_BY_EXTERNAL_IDS } from '../src/pets/infrastructure/sql-pet.repository';
import { freshDatabase, FreshDatabase } from './support/fresh-database';
import { PlanNode, rowsExamined } from './support/query-plans';
import { startTestApp, TestApp } from './support/test-app';

/**
 * An import's batch finds the pets its rows name by their external ids: with the plan kept from
 * when the table was empty (docs/adr/0050), one probe per id, never the organisation's other pets
 * nor another organisation's pets of the same ids. The plan it had read every pet of the
 * organisation for each batch: an import slowed as it grew (docs/performance.md, "Shelter data
 * in and out").
 */
jest.setTimeout(120_000);

const PETS = 3_000;
const ASKED = 50;

describe('the pets of an import batch, found by external id on tables never analysed', () => {
  let database: FreshDatabase;
  let t: TestApp;
  let session: Client;

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ DATABASE_URL: database.url });
    await t.dataSource.query(`ALTER TABLE pets SET (autovacuum_enabled = false)`);
    session = new Client({ connectionString: database.url });
    await session.connect();
  });
  afterAll(async () => {
    await session?.end();
    await t?.close();
    await database?.drop();
  });

  const find = (explain = '') =>
    session.query(
      `${explain} EXECUTE find(1, '{${Array.from({ length: ASKED }, (_, i) => `A-${i * 7 + 1}`).join(',')}}')`,
    );

  it('probes the unique index once per id, whatever the organisation holds', async () => {
    await session.query('SET plan_cache_mode = force_generic_plan');
    await session.query(`PREPARE find AS ${FIND_BY_EXTERNAL_IDS.text}`);
    // The generic plan is made at the first run, on the empty table, and kept.
    expect((await find()).rows).toEqual([]);

    // The organisation's pets, and as many of another organisation under the same ids.
    const other = await t.dataSource.query(
      `INSERT INTO organizations (name, name_key, email, address_city, address_country)
       VALUES ('Other', 'other', 'o@shelter.example', 'York', 'GB') RETURNING id`,
    );
    await t.dataSource.query(`INSERT INTO categories (id) VALUES (1) ON CONFLICT DO NOTHING`);
    for (const organization of [1, other[0].id as number]) {
      await t.dataSource.query(
        `INSERT INTO pets (name, category_id, status, organization_id, external_id)
         SELECT 'Pet ' || i, 1, 'available', $1, 'A-' || i FROM generate_series(1, $2::int) i`,
        [organization, PETS],
      );
    }

    const found = (await find()).rows as { organizationId: string; externalId: string }[];
    expect(found).toHaveLength(ASKED);
    expect(new Set(found.map((pet) => Number(pet.organizationId)))).toEqual(new Set([1]));
    const [{ 'QUERY PLAN': plan }] = (await find('EXPLAIN (ANALYZE, FORMAT JSON)')).rows;
    // One pet a probe; the plan before looked at all 3,000 of the organisation's.
    expect(rowsExamined(plan[0].Plan as PlanNode, 'pets')).toBe(ASKED);
  });
});
