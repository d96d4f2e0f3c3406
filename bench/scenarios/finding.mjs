// Finding animals (CONTRACT.md "Finding") on an instance and a database of their own, at
// --large-rows pets (--rows with --smoke) with varied profiles: a page of each filter, alone and
// with a status, against a plain page, service CPU per request and p99, in interleaved rounds
// (medians). The issues' target: each within 2× of the plain page, the pages that match nothing
// (NO_MATCH) too.
import { insertKey, log, seedPets } from '../environment.mjs';
import { summarize } from '../report.mjs';

/** Each filter as a client sends it; with `&status=available` too. */
export const FILTERS = [
  'status=available,pending',
  'organizationId=2',
  'breed=collie',
  'age=baby,young',
  'sex=female',
  'size=large',
  'goodWith=children',
  'goodWith=children,dogs',
  'houseTrained=true',
  'specialNeeds=true',
  'age=senior&size=small&goodWith=cats',
  'hasPhotos=true',
  // The orders, and near a point (the seeded shelters spread over Great Britain).
  'sort=-createdAt',
  'sort=name',
  'sort=random&seed=7',
  'near=52.5,-1.5&radiusKm=100',
  'near=52.5,-1.5&radiusKm=100&sort=distance',
];

/**
 * Pages whose filters match nothing or next to nothing, sorted by name (issue 44): a plan that walked the name index
 * read every pet to answer `[]`. Each within 2× of the plain page too.
 */
export const NO_MATCH = [
  'breed=nonexistent&sort=name',
  'near=-33.9,151.2&radiusKm=10&sort=name',
  'hasPhotos=true&breed=nonexistent&sort=name',
  'specialNeeds=true&age=baby&size=xlarge&goodWith=cats&sort=name',
];

/** Shelters to spread the pets over, each at a place of Great Britain (50-55.5 N, 4.5 W-1.5 E). */
const SHELTERS = 2_000;

/**
 * The seeded pets' profiles, spread as a shelter's would be: four breeds (one in twenty a mix with
 * a second), the four ages and sizes, both sexes, about one in ten with special needs, good with
 * children one in two, dogs one in three, cats one in seven.
 */
async function seedProfiles(client) {
  await client.query(
    `INSERT INTO organizations (name, name_key, email, address_city, address_country, lat, lon)
     SELECT 'Shelter ' || i, 'shelter ' || i, 's' || i || '@shelter.example', 'York', 'GB',
            50 + (i * 7919 % 1000) / 1000.0 * 5.5, -4.5 + (i * 104729 % 1000) / 1000.0 * 6
       FROM generate_series(1, $1::int) i`,
    [SHELTERS],
  );
  // One statement, so that the table is rewritten once, as the seeded pets' single update (two
  // more full-table updates left it three times its size, and the planner chose differently).
  // The pets spread over the shelters; one in five with a photo (the projection the pets show).
  await client.query(
    `UPDATE pets SET organization_id = (SELECT min(id) FROM organizations WHERE id > 1) + id % $1,
       photos = CASE WHEN id % 5 = 0
         THEN '[{"id":1,"position":1,"width":100,"height":100,"urls":{}}]'::json
         ELSE '[]'::json END,
       profile = jsonb_build_object(
       'breed', jsonb_build_object(
         'primary', (ARRAY['Labrador Retriever', 'Collie', 'Beagle', 'Poodle'])[1 + id % 4],
         'secondary', CASE WHEN id % 20 = 0 THEN 'Terrier' END, 'mixed', id % 20 = 0),
       'age', (ARRAY['baby', 'young', 'adult', 'senior'])[1 + id % 4],
       'birthDate', NULL, 'sex', (ARRAY['female', 'male'])[1 + id % 2],
       'size', (ARRAY['small', 'medium', 'large', 'xlarge'])[1 + (id / 4) % 4],
       'coat', NULL, 'colors', '[]'::jsonb, 'description', NULL,
       'attributes', jsonb_build_object('spayedNeutered', NULL, 'houseTrained', id % 3 = 0,
         'specialNeeds', id % 10 = 0, 'shotsCurrent', NULL),
       'environment', jsonb_build_object('children', id % 2 = 0, 'dogs', id % 3 = 0,
         'cats', id % 7 = 0),
       'tags', '[]'::jsonb)`,
    [SHELTERS],
  );
  await client.query('VACUUM ANALYZE pets');
  await client.query('VACUUM ANALYZE organizations');
}

export async function measureFinding(bench) {
  const { largeRows, rounds, warmup, smoke } = bench.settings;
  const pets = smoke ? bench.settings.rows : largeRows;
  log(`Finding: a database with ${pets.toLocaleString('en')} pets with profiles...`);
  const db = await bench.database('_finding');
  const service = await bench.processes.service('service-finding', 4318, bench.serviceEnv(db));
  await db.client.connect();
  await seedPets(db.client, pets);
  await seedProfiles(db.client);
  await insertKey(db.client, bench.key);
  await bench.untilKeysKnown();
  const page = 'GET /v1/pets?limit=20';
  const queries = [
    ...FILTERS.flatMap((filter) =>
      filter.startsWith('status=') ? [filter] : [filter, `${filter}&status=available`],
    ),
    ...NO_MATCH,
  ];
  const operations = {
    [page]: { path: '/v1/pets?limit=20', headers: bench.auth },
    ...Object.fromEntries(
      queries.map((query) => [
        `GET /v1/pets?${query}&limit=20`,
        { path: `/v1/pets?${query}&limit=20`, headers: bench.auth },
      ]),
    ),
  };
  log('Finding: warm-up...');
  for (const op of Object.values(operations)) await bench.run(service, op, { seconds: warmup });
  const runs = {};
  for (let round = 1; round <= rounds; round++) {
    log(`Finding: round ${round}/${rounds}...`);
    for (const [name, op] of Object.entries(operations))
      (runs[name] ??= []).push(await bench.run(service, op));
  }
  await bench.processes.stop(service);
  const summaries = Object.fromEntries(Object.entries(runs).map(([n, r]) => [n, summarize(r)]));
  const plain = summaries[page];
  const ratios = Object.fromEntries(
    Object.entries(summaries)
      .filter(([name]) => name !== page)
      .map(([name, s]) => [
        name,
        {
          cpu: Number((s.cpuMsPerRequest / plain.cpuMsPerRequest).toFixed(2)),
          p99: Number((s.p99 / plain.p99).toFixed(2)),
          errors: s.errors,
        },
      ]),
  );
  const worst = (field) => Math.max(...Object.values(ratios).map((r) => r[field]));
  return {
    pets,
    operations: summaries,
    ratios,
    // A refused page would be cheap: every page measured must have been answered.
    refused: Object.values(summaries).reduce((sum, s) => sum + s.errors, 0),
    worstCpuRatio: worst('cpu'),
    worstP99Ratio: worst('p99'),
  };
}
