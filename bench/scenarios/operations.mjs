// The hot operations, service against floor, in interleaved rounds after a warm-up; and the
// no-I/O ceiling. The floor is first checked to answer as the service does.
import { parity } from '../parity.mjs';
import { log } from '../environment.mjs';
import { pairedRatio, summarize } from '../report.mjs';

/**
 * What parity compares besides the operations themselves: refusals of each kind, every check of
 * the order the contract gives (rate limit, key, scope, query, path, body) included.
 */
function refusals(operations, bench, rows) {
  const { auth } = bench;
  const create = operations['POST /v1/pets'];
  const bearer = (key) => ({ authorization: `Bearer ${key}` });
  const limited = { path: '/v1/pets', headers: bearer(bench.limitedKey) };
  return {
    'no key': { path: '/v1/pets' },
    'unknown key': { path: '/v1/pets', headers: bearer(`pet_live_${'x'.repeat(43)}`) },
    'key without the scope': {
      ...create,
      headers: { ...create.headers, ...bearer(bench.readOnlyKey) },
    },
    // The key's one request of the minute is spent first: both servers then answer 429.
    'rate limited': { ...limited, before: limited },
    'body too large': {
      ...create,
      body: JSON.stringify({ name: 'Rex', categoryId: 7, padding: 'x'.repeat(17 * 1024) }),
    },
    'body not JSON': { ...create, headers: { ...create.headers, 'content-type': 'text/plain' } },
    'limit=0': { path: '/v1/pets?limit=0', headers: auth },
    'unknown parameter': { path: '/v1/pets?page=2', headers: auth },
    'petId=abc': { path: '/v1/pets/abc', headers: auth },
    'no such pet': { path: `/v1/pets/${rows * 1000}`, headers: auth },
    'body without categoryId': { ...operations['POST /v1/pets'], body: '{"name":"Rex"}' },
    'body with id': {
      ...operations['POST /v1/pets'],
      body: '{"id":1,"name":"Rex","categoryId":7}',
    },
  };
}

/**
 * A warm-up, then rounds in which each operation is measured on each target in turn, the first
 * target alternating, so that neither always meets a warmer machine; `afterRound` runs after each.
 * The samples by operation and target name.
 */
export async function interleavedRounds(bench, targets, operations, afterRound = async () => {}) {
  const { rounds, warmup } = bench.settings;
  log(`Warm-up: ${warmup} s per operation and server...`);
  for (const op of Object.values(operations))
    for (const target of targets) await bench.run(target, op, { seconds: warmup });
  const samples = {};
  for (let round = 1; round <= rounds; round++) {
    log(`Round ${round}/${rounds}...`);
    const order = round % 2 ? targets : [...targets].reverse();
    for (const [name, op] of Object.entries(operations))
      for (const target of order)
        ((samples[name] ??= {})[target.name] ??= []).push(await bench.run(target, op));
    await afterRound();
  }
  return samples;
}

export async function measureOperations(bench, { service, floor, ceiling }, operations) {
  const { rows } = bench.settings;
  log('Checking that the floor answers as the service does...');
  const differences = await parity(service, floor, {
    ...operations,
    ...refusals(operations, bench, rows),
  });
  if (differences.length > 0) {
    throw new Error(
      `The floor does not answer as the service does:\n  ${differences.join('\n  ')}`,
    );
  }

  const ceilingRuns = [];
  const samples = await interleavedRounds(bench, [service, floor], operations, async () =>
    ceilingRuns.push(await bench.run(ceiling, operations['GET /v1/pets/{id}'])),
  );
  const report = Object.fromEntries(
    Object.keys(operations).map((name) => {
      const { service: serviceRuns, floor: floorRuns } = samples[name];
      const { ratio, rounds: roundRatios } = pairedRatio(serviceRuns, floorRuns);
      const { ratio: p99Ratio } = pairedRatio(serviceRuns, floorRuns, 'p99');
      return [
        name,
        {
          service: summarize(serviceRuns),
          floor: summarize(floorRuns),
          ratio,
          roundRatios,
          p99Ratio,
        },
      ];
    }),
  );
  return { operations: report, ceiling: summarize(ceilingRuns) };
}
