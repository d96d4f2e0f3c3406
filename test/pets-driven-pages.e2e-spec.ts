import fc from 'fast-check';
import { SCOPES } from '../src/common/scopes';
import { freshDatabase, FreshDatabase } from './support/fresh-database';
import { apiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(180_000);

const BASE = 'https://pets.example/v1';

/** The target of the Link rel="next" header, or undefined. */
const nextLink = (header: string | undefined) => header?.match(/^<([^>]+)>; rel="next"$/)?.[1];

/** Places to look near: a town with many shelters, one with a few, and the open sea. */
const PLACES = {
  york: { lat: 53.96, lon: -1.08, shelters: 40 },
  bristol: { lat: 51.45, lon: -2.59, shelters: 3 },
  sea: { lat: -45, lon: -140, shelters: 0 },
};

/**
 * The pages that start from their filter (SqlPetRepository's drivenPage: a breed's two indexes
 * merged, each age asked for merged, the organisations near a point one by one or the order's
 * walk, the pets with photos' own index) answer exactly what the plain reading of the filters
 * does: the same pets in the same order, and the same pets again when walked page by page by
 * `Link`. The reference is one plain SQL query per case, without any of those plans' devices.
 * The pets share names (the order is by name, then id), some are deleted, some have a primary and
 * a secondary breed that are the same breed in another case, some have no age or breed at all;
 * York has more nearby shelters with pets than the statements read one by one, Bristol fewer.
 */
describe('GET /v1/pets: pages that start from their filter', () => {
  let database: FreshDatabase;
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ DATABASE_URL: database.url, PUBLIC_BASE_URL: BASE });
    api = apiClient(t.url, (await t.issueKey({ organizationId: '1', scopes: [...SCOPES] })).auth);
    const db = t.dataSource;
    // Shelters a few km apart around each place (0.01° of latitude is about 1.1 km).
    for (const { lat, lon, shelters } of Object.values(PLACES)) {
      if (shelters === 0) continue;
      await db.query(
        `INSERT INTO organizations (name, name_key, email, address_city, address_country, lat, lon)
         SELECT 'Shelter ' || $1 || ' ' || i, 'shelter ' || $1 || ' ' || i,
                'a' || i || '@shelter.example', 'York', 'GB',
                $2::float8 + (i % 7) * 0.02, $3::float8 + (i / 7) * 0.03
           FROM generate_series(1, $4::int) i`,
        [`${lat},${lon}`, lat, lon, shelters],
      );
    }
    await db.query('INSERT INTO categories (id) VALUES (1) ON CONFLICT DO NOTHING');
    const [{ first, last }] = await db.query(
      'SELECT min(id) AS first, max(id) AS last FROM organizations WHERE id > 1',
    );
    const shelters = Number(last) - Number(first) + 1;
    await db.query(
      `INSERT INTO pets (name, category_id, status, organization_id, photos, profile)
       SELECT 'Pet ' || (i % 37), 1, (ARRAY['available', 'pending', 'sold'])[1 + i % 3],
              CASE WHEN i % 11 = 0 THEN 1 ELSE $1::bigint + i % $2::int END,
              CASE WHEN i % 3 = 0
                THEN '[{"id":1,"position":1,"width":100,"height":100,"urls":{}}]'::json
                ELSE '[]'::json END,
              jsonb_build_object(
                'breed', jsonb_build_object(
                  'primary', (ARRAY['Labrador', 'Collie', 'Beagle', NULL])[1 + i % 4],
                  'secondary', (ARRAY[NULL, 'collie', 'Terrier', NULL, 'LABRADOR'])[1 + i % 5],
                  'mixed', i % 5 > 0),
                'age', (ARRAY['baby', 'young', 'adult', 'senior', NULL])[1 + i % 5],
                'birthDate', NULL, 'sex', NULL, 'size', NULL, 'coat', NULL,
                'colors', '[]'::jsonb, 'description', NULL,
                'attributes', jsonb_build_object('spayedNeutered', NULL, 'houseTrained', NULL,
                  'specialNeeds', NULL, 'shotsCurrent', NULL),
                'environment', jsonb_build_object('children', NULL, 'dogs', NULL, 'cats', NULL),
                'tags', '[]'::jsonb)
         FROM generate_series(1, 400) i`,
      [first, shelters],
    );
    await db.query(`UPDATE pets SET deleted_at = now() WHERE id % 13 = 0`);
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  /** Every page of a query, by its `Link`s: the ids. */
  async function follow(query: Record<string, string>) {
    const ids: number[] = [];
    let path: string | undefined = `/v1/pets?${new URLSearchParams(query)}`;
    while (path) {
      const response = await api.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      ids.push(...response.body.map((pet: { id: number }) => pet.id));
      path = nextLink(response.headers.link)?.replace(BASE, '/v1');
    }
    return ids;
  }

  /** The ids the filters of `query` let through, by one plain query, in its order. */
  async function expected(query: Record<string, string>): Promise<number[]> {
    const conditions = ['p.deleted_at IS NULL'];
    const values: unknown[] = [];
    const value = (v: unknown) => `$${values.push(v)}`;
    if (query.status) conditions.push(`p.status = ANY(${value(query.status.split(','))})`);
    if (query.breed) {
      const breed = value(query.breed.toLowerCase());
      conditions.push(`(lower(p.profile -> 'breed' ->> 'primary') = ${breed}
                        OR lower(p.profile -> 'breed' ->> 'secondary') = ${breed})`);
    }
    if (query.age) conditions.push(`p.profile ->> 'age' = ANY(${value(query.age.split(','))})`);
    if (query.hasPhotos) conditions.push(`p.photos::text <> '[]'`);
    if (query.near) {
      const [lat, lon] = query.near.split(',').map(Number);
      const [la, lo, km] = [value(lat), value(lon), value(Number(query.radiusKm))];
      conditions.push(`cube_distance(o.geo, geo_point(${la}, ${lo})) <= geo_chord(${km})`);
    }
    const rows: { id: string }[] = await t.dataSource.query(
      `SELECT p.id FROM pets p JOIN organizations o ON o.id = p.organization_id
        WHERE ${conditions.join(' AND ')}
        ORDER BY ${query.sort === 'name' ? 'p.name, p.id' : 'p.id'}`,
      values,
    );
    return rows.map(({ id }) => Number(id));
  }

  it.each<Record<string, string>>([
    { breed: 'collie' },
    { breed: 'LABRADOR', sort: 'name' },
    { breed: 'nonexistent', sort: 'name' },
    { age: 'senior,baby', sort: 'name' },
    { age: 'young' },
    { hasPhotos: 'true', sort: 'name' },
    { near: '53.96,-1.08', radiusKm: '50', sort: 'name' },
    { near: '51.45,-2.59', radiusKm: '50', sort: 'name' },
    { near: '51.45,-2.59', radiusKm: '50' },
    { near: '-45,-140', radiusKm: '100', sort: 'name' },
  ])('answers %j as the plain reading does, whole and page by page', async (query) => {
    const whole = await expected(query);
    // Something to find, but where nothing is.
    expect(whole.length > 0).toBe(!['nonexistent', '-45,-140'].includes(query.breed ?? query.near));
    expect(await follow({ ...query, limit: '100' })).toEqual(whole);
    expect(await follow({ ...query, limit: '7' })).toEqual(whole);
  });

  it('answers every combination of these filters, in both orders, as the plain reading does', async () => {
    const choose = (values: string[]) =>
      fc.subarray(values, { minLength: 1 }).map((picked) => picked.join(','));
    const places = Object.values(PLACES).map(({ lat, lon }) => `${lat},${lon}`);
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            status: choose(['available', 'pending', 'sold']),
            breed: fc.constantFrom('collie', 'Labrador', 'terrier', 'poodle'),
            age: choose(['baby', 'young', 'adult', 'senior']),
            hasPhotos: fc.constant('true'),
            near: fc.constantFrom(...places),
            sort: fc.constant('name'),
            limit: fc.constantFrom('3', '20'),
          },
          { requiredKeys: ['limit'] },
        ),
        async (query) => {
          const asked = query.near ? { ...query, radiusKm: '50' } : query;
          expect(await follow(asked)).toEqual(await expected(asked));
        },
      ),
      { numRuns: 60, seed: 44 },
    );
  });
});
