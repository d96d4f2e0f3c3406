// The shelters' listing on an instance and a database of their own, at 100,000 organisations
// (--rows with --smoke) spread over Europe: a page near a point (the 100 km around Bristol, a few
// hundred of them) against a plain page, service CPU per request and p99, in interleaved rounds
// (medians).
import { insertKey, log } from '../environment.mjs';
import { summarize } from '../report.mjs';

/** Organisations the full run seeds. */
const ORGANIZATIONS = 100_000;
export const NEAR = 'near=51.45,-2.6&radiusKm=100';

/** Organisations with names, an address and a location in a box from Lisbon to Helsinki. */
async function seedOrganizations(client, count) {
  await client.query(
    `INSERT INTO organizations (name, name_key, email, address_city, address_country, lat, lon)
     SELECT 'Shelter ' || i, 'shelter ' || i, 'adopt' || i || '@shelter.example', 'City', 'GB',
            36 + random() * 24, -10 + random() * 35
       FROM generate_series(1, $1::int) i`,
    [count],
  );
  await client.query('VACUUM ANALYZE organizations');
}

export async function measureOrganizations(bench) {
  const { rounds, warmup, smoke } = bench.settings;
  const count = smoke ? bench.settings.rows : ORGANIZATIONS;
  log(`Organisations: a database with ${count.toLocaleString('en')} of them...`);
  const db = await bench.database('_organizations');
  const service = await bench.processes.service('service-orgs', 4316, bench.serviceEnv(db));
  await db.client.connect();
  await seedOrganizations(db.client, count);
  await insertKey(db.client, bench.key);
  await bench.untilKeysKnown();
  const operations = {
    'GET /v1/organizations?limit=20': { path: '/v1/organizations?limit=20', headers: bench.auth },
    [`GET /v1/organizations?${NEAR}&limit=20`]: {
      path: `/v1/organizations?${NEAR}&limit=20`,
      headers: bench.auth,
    },
  };
  log('Organisations: warm-up...');
  for (const op of Object.values(operations)) await bench.run(service, op, { seconds: warmup });
  const runs = {};
  for (let round = 1; round <= rounds; round++) {
    log(`Organisations: round ${round}/${rounds}...`);
    for (const [name, op] of Object.entries(operations))
      (runs[name] ??= []).push(await bench.run(service, op));
  }
  const [{ near }] = (
    await db.client.query(
      `SELECT count(*)::int AS near FROM organizations
        WHERE geo <@ geo_ball(51.45, -2.6, 100)
          AND cube_distance(geo, geo_point(51.45, -2.6)) <= geo_chord(100)`,
    )
  ).rows;
  await bench.processes.stop(service);
  const summaries = Object.fromEntries(Object.entries(runs).map(([n, r]) => [n, summarize(r)]));
  const page = summaries['GET /v1/organizations?limit=20'];
  const nearby = summaries[`GET /v1/organizations?${NEAR}&limit=20`];
  return {
    organizations: count,
    withinRadius: near,
    operations: summaries,
    nearCpuRatio: Number((nearby.cpuMsPerRequest / page.cpuMsPerRequest).toFixed(2)),
    nearP99Ratio: Number((nearby.p99 / page.p99).toFixed(2)),
  };
}
