// The same two list pages at two database sizes, each on a fresh instance of its own, measured
// back to back in every round; the cost ratio is taken per round.
import { insertKey, log, seedPets } from '../environment.mjs';
import { pairedRatio, summarize } from '../report.mjs';

/** Mean time of a prepared statement seen from a client on loopback, in ms, over 300 runs. */
async function sqlMs(client, statement) {
  await client.query(statement);
  const start = process.hrtime.bigint();
  for (let i = 0; i < 300; i++) await client.query(statement);
  return Number((Number(process.hrtime.bigint() - start) / 1e6 / 300).toFixed(3));
}

export async function measureDataScale(bench, small, operations) {
  const { rows, largeRows, rounds, warmup } = bench.settings;
  const pages = {
    'GET /v1/pets?status=available&limit=20': {
      op: () => operations['GET /v1/pets?status=available&limit=20'],
      sql: () => ({
        name: 'first_page_by_status',
        text: 'SELECT id, name, category_id, status FROM pets WHERE deleted_at IS NULL AND status = $1 AND id > $2 ORDER BY id LIMIT $3',
        values: ['available', 0, 21],
      }),
    },
    'GET /v1/pets?after (deep page)': {
      op: (maxId) => ({ path: `/v1/pets?limit=20&after=${maxId - 100}`, headers: bench.auth }),
      sql: (maxId) => ({
        name: 'deep_page',
        text: 'SELECT id, name, category_id, status FROM pets WHERE deleted_at IS NULL AND id > $1 ORDER BY id LIMIT $2',
        values: [maxId - 100, 21],
      }),
    },
  };
  // The first database brought back to exactly `rows` pets; a second of `largeRows`.
  await small.client.query('DELETE FROM pets WHERE id > $1', [rows]);
  await small.client.query('VACUUM ANALYZE pets');
  log(`Data scale: a second database with ${largeRows.toLocaleString('en')} pets...`);
  const large = await bench.database('_large');
  const smallService = await bench.processes.service(
    'service-small',
    4305,
    bench.serviceEnv(small),
  );
  const largeService = await bench.processes.service(
    'service-large',
    4306,
    bench.serviceEnv(large),
  );
  await large.client.connect();
  const sizes = [
    { name: 'small', target: smallService, maxId: rows },
    { name: 'large', target: largeService, maxId: await seedPets(large.client, largeRows) },
  ];
  await insertKey(large.client, bench.key);
  await bench.untilKeysKnown();
  log('Data scale: measuring both sizes in interleaved rounds...');
  for (const size of sizes)
    for (const page of Object.values(pages))
      await bench.run(size.target, page.op(size.maxId), { seconds: warmup });
  const runs = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, page] of Object.entries(pages)) {
      for (const size of round % 2 ? [...sizes].reverse() : sizes) {
        ((runs[name] ??= {})[size.name] ??= []).push(
          await bench.run(size.target, page.op(size.maxId)),
        );
      }
    }
  }
  const report = {};
  for (const [name, page] of Object.entries(pages)) {
    const { small: smallRuns, large: largeRuns } = runs[name];
    report[name] = {
      smallRows: rows,
      largeRows,
      small: summarize(smallRuns),
      large: summarize(largeRuns),
      smallSqlMs: await sqlMs(small.client, page.sql(rows)),
      largeSqlMs: await sqlMs(large.client, page.sql(sizes[1].maxId)),
      costRatio: pairedRatio(smallRuns, largeRuns).ratio,
    };
  }
  await bench.processes.stop(smallService);
  await bench.processes.stop(largeService);
  return report;
}
