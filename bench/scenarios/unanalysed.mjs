// Pages of pets on a table PostgreSQL has never analysed against the same pages after ANALYZE
// (docs/adr/0050), on an instance and a database of their own: 10,000 pets inserted with
// autovacuum off for the table, each listing measured (throughput, p99), then ANALYZE and again,
// in interleaved rounds (medians of each phase's rounds).
import { insertKey, log } from '../environment.mjs';
import { summarize } from '../report.mjs';

const PETS = 10_000;

export const UNANALYSED_LISTINGS = [
  '/v1/pets?limit=20',
  '/v1/pets?status=available&limit=20',
  '/v1/pets?categoryId=7&limit=20',
  '/v1/pets?status=available&categoryId=7&limit=20',
];

export async function measureUnanalysed(bench) {
  const { rounds, warmup } = bench.settings;
  log(`Unanalysed: ${PETS.toLocaleString('en')} pets never analysed, then analysed...`);
  const db = await bench.database('_unanalysed');
  const service = await bench.processes.service('service-unanalysed', 4318, bench.serviceEnv(db));
  await db.client.connect();
  await db.client.query('ALTER TABLE pets SET (autovacuum_enabled = false)');
  await db.client.query(
    'INSERT INTO categories (id) SELECT generate_series(1, 50) ON CONFLICT DO NOTHING',
  );
  await db.client.query(
    `INSERT INTO pets (name, category_id, status)
     SELECT 'pet ' || i, 1 + i % 50, (ARRAY['available', 'pending', 'sold'])[1 + i % 3]
       FROM generate_series(1, $1::int) i`,
    [PETS],
  );
  await insertKey(db.client, bench.key);
  await bench.untilKeysKnown();
  const operations = Object.fromEntries(
    UNANALYSED_LISTINGS.map((path) => [`GET ${path}`, { path, headers: bench.auth }]),
  );
  const measurePhase = async (phase) => {
    for (const op of Object.values(operations)) await bench.run(service, op, { seconds: warmup });
    const runs = {};
    for (let round = 1; round <= rounds; round++) {
      log(`Unanalysed: ${phase}, round ${round}/${rounds}...`);
      for (const [name, op] of Object.entries(operations))
        (runs[name] ??= []).push(await bench.run(service, op));
    }
    return Object.fromEntries(Object.entries(runs).map(([n, r]) => [n, summarize(r)]));
  };
  const [{ analysed }] = (
    await db.client.query(
      `SELECT (last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL) AS analysed
         FROM pg_stat_user_tables WHERE relname = 'pets'`,
    )
  ).rows;
  if (analysed) throw new Error('The pets table was analysed before its first phase.');
  const before = await measurePhase('never analysed');
  await db.client.query('ANALYZE pets');
  const after = await measurePhase('analysed');
  await bench.processes.stop(service);
  const ratios = Object.fromEntries(
    Object.keys(operations).map((name) => [
      name,
      {
        throughput: Number((before[name].rps / after[name].rps).toFixed(2)),
        p99: Number((before[name].p99 / after[name].p99).toFixed(2)),
      },
    ]),
  );
  return { pets: PETS, neverAnalysed: before, analysed: after, ratios };
}
