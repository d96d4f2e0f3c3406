import { Client } from 'pg';
import { FIND_BY_EXTERNAL_IDS } from '../src/pets/infrastructure/sql-pet.repository';
import { freshDatabase, FreshDatabase } from './support/fresh-database';
import { PlanNode, rowsExamined } from './support/query-plans';
import { startTestApp, TestApp } from './support/test-app';

/**
 * An import's batch finds the pets its rows name by their external ids: one probe per id, never
 * the organisation's other pets nor another organisation's pets of the same ids, on a table never
 * analysed, in each state an import meets it. The statement is planned for each batch, with its
 * values (never a plan kept from an earlier table): a plan kept from the empty table, or from one
 * of pets without external ids, read every pet of the organisation for each batch or each id
 * (docs/performance.md, "Shelter data in and out").
 */
jest.setTimeout(120_000);

const PETS = 3_000;
const ASKED = 50;

describe('the pets of an import batch, found by external id on tables never analysed', () => {
  let database: FreshDatabase;
  let t: TestApp;
  let session: Client;
  let other: number;

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ DATABASE_URL: database.url });
    await t.dataSource.query(`ALTER TABLE pets SET (autovacuum_enabled = false)`);
    session = new Client({ connectionString: database.url });
    await session.connect();
    [{ id: other }] = await t.dataSource.query(
      `INSERT INTO organizations (name, name_key, email, address_city, address_country)
       VALUES ('Other', 'other', 'o@shelter.example', 'York', 'GB') RETURNING id`,
    );
    await t.dataSource.query(`INSERT INTO categories (id) VALUES (1) ON CONFLICT DO NOTHING`);
  });
  afterAll(async () => {
    await session?.end();
    await t?.close();
    await database?.drop();
  });

  const ids = Array.from({ length: ASKED }, (_, i) => `A-${i * 7 + 1}`);
  /** As the service sends it: unnamed, so planned with these values on the table as it is. */
  const find = (explain = '') => session.query(`${explain} ${FIND_BY_EXTERNAL_IDS.text}`, [1, ids]);
  const examined = async () => {
    const [{ 'QUERY PLAN': plan }] = (await find('EXPLAIN (ANALYZE, FORMAT JSON)')).rows;
    return rowsExamined(plan[0].Plan as PlanNode, 'pets');
  };
  const addPets = (organization: number, externalIds: boolean) =>
    t.dataSource.query(
      `INSERT INTO pets (name, category_id, status, organization_id, external_id)
       SELECT 'Pet ' || i, 1, 'available', $1, CASE WHEN $3 THEN 'A-' || i END
         FROM generate_series(1, $2::int) i`,
      [organization, PETS, externalIds],
    );

  it('is never prepared: no plan of an earlier table is kept', () => {
    expect(FIND_BY_EXTERNAL_IDS.prepare).toBe(false);
  });

  it('probes the unique index once per id, whatever the organisation holds', async () => {
    expect((await find()).rows).toEqual([]);
    // The organisation's pets from before its first import: none has an external id.
    await addPets(1, false);
    expect((await find()).rows).toEqual([]);
    expect(await examined()).toBe(0);

    // Then pets of the ids, of the organisation and as many of another under the same ids.
    await addPets(1, true);
    await addPets(other, true);
    const found = (await find()).rows as { organizationId: string; externalId: string }[];
    expect(found).toHaveLength(ASKED);
    expect(new Set(found.map((pet) => Number(pet.organizationId)))).toEqual(new Set([1]));
    // One pet a probe; kept plans looked at all the organisation's pets.
    expect(await examined()).toBe(ASKED);
  });
});
