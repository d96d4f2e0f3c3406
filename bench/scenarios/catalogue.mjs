// The catalogue's operations on an instance and a database of their own, at --large-rows pets
// (--rows with --smoke), each against what it is judged by, in interleaved rounds (medians): a name
// search page and a category page against a plain list page (service CPU per request and p99),
// updatePet under If-Match against createPet (CPU per request), and createPet naming a new
// category every time against createPet into an existing one (CPU per request).
import { insertKey, log, seedPets } from '../environment.mjs';
import { summarize } from '../report.mjs';

/** A fragment of about 300 of the seeded names at 1,000,000 pets ('pet 4242', 'pet 14242', …). */
export const SEARCHED = '4242';

export async function measureCatalogue(bench) {
  const { largeRows, rounds, warmup, smoke } = bench.settings;
  const pets = smoke ? bench.settings.rows : largeRows;
  log(`Catalogue: a database with ${pets.toLocaleString('en')} pets...`);
  const db = await bench.database('_catalogue');
  const service = await bench.processes.service('service-catalogue', 4308, bench.serviceEnv(db));
  await db.client.connect();
  await seedPets(db.client, pets);
  await insertKey(db.client, bench.key);
  await bench.untilKeysKnown();

  const json = { ...bench.auth, 'content-type': 'application/json' };
  // Each update renames a seeded pet of its own, still at version 1: every one is a 200 that
  // passes its If-Match, as an editor's would.
  let nextPet = 1;
  // Each of these creates names a category no pet has named yet.
  let nextCategory = 1_000_000;
  const operations = {
    'GET /v1/pets?limit=20': { path: '/v1/pets?limit=20', headers: bench.auth },
    [`GET /v1/pets?name=${SEARCHED}&limit=20`]: {
      path: `/v1/pets?name=${SEARCHED}&limit=20`,
      headers: bench.auth,
    },
    'GET /v1/pets?categoryId=7&limit=20': {
      path: '/v1/pets?categoryId=7&limit=20',
      headers: bench.auth,
    },
    'POST /v1/pets': {
      method: 'POST',
      path: '/v1/pets',
      headers: json,
      body: '{"name":"Rex","categoryId":7}',
    },
    'POST /v1/pets (a new category each)': {
      requests: [
        {
          method: 'POST',
          path: '/v1/pets',
          headers: json,
          setupRequest: (request) => ({
            ...request,
            body: `{"name":"Rex","categoryId":${nextCategory++}}`,
          }),
        },
      ],
    },
    'PATCH /v1/pets/{id} (If-Match)': {
      requests: [
        {
          method: 'PATCH',
          headers: { ...json, 'if-match': '"1"' },
          body: '{"name":"Rexy"}',
          setupRequest: (request) => ({ ...request, path: `/v1/pets/${nextPet++}` }),
        },
      ],
    },
  };
  log('Catalogue: warm-up...');
  for (const op of Object.values(operations)) await bench.run(service, op, { seconds: warmup });
  const runs = {};
  for (let round = 1; round <= rounds; round++) {
    log(`Catalogue: round ${round}/${rounds}...`);
    for (const [name, op] of Object.entries(operations))
      (runs[name] ??= []).push(await bench.run(service, op));
  }
  const [{ count: categories }] = (
    await db.client.query('SELECT count(*)::int AS count FROM categories')
  ).rows;
  await bench.processes.stop(service);

  const summaries = Object.fromEntries(Object.entries(runs).map(([n, r]) => [n, summarize(r)]));
  const ratio = (name, against, field) =>
    Number((summaries[name][field] / summaries[against][field]).toFixed(2));
  const page = 'GET /v1/pets?limit=20';
  const search = `GET /v1/pets?name=${SEARCHED}&limit=20`;
  const category = 'GET /v1/pets?categoryId=7&limit=20';
  return {
    pets,
    categories,
    searched: SEARCHED,
    operations: summaries,
    nameSearchCpuRatio: ratio(search, page, 'cpuMsPerRequest'),
    nameSearchP99Ratio: ratio(search, page, 'p99'),
    categoryPageCpuRatio: ratio(category, page, 'cpuMsPerRequest'),
    categoryPageP99Ratio: ratio(category, page, 'p99'),
    updatePetCpuRatio: ratio('PATCH /v1/pets/{id} (If-Match)', 'POST /v1/pets', 'cpuMsPerRequest'),
    newCategoryCpuRatio: ratio(
      'POST /v1/pets (a new category each)',
      'POST /v1/pets',
      'cpuMsPerRequest',
    ),
  };
}
