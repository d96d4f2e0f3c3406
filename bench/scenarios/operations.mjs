// The hot operations, service against floor, in interleaved rounds after a warm-up; and the
// no-I/O ceiling. The floor is first checked to answer as the service does.
import { parity } from '../parity.mjs';
import { log } from '../environment.mjs';
import { pairedRatio, summarize } from '../report.mjs';

/** What parity compares besides the operations themselves: refusals of each kind. */
function refusals(operations, auth, rows) {
  return {
    'no key': { path: '/v1/pets' },
    'limit=0': { path: '/v1/pets?limit=0', headers: auth },
    'unknown parameter': { path: '/v1/pets?sort=id', headers: auth },
    'petId=abc': { path: '/v1/pets/abc', headers: auth },
    'no such pet': { path: `/v1/pets/${rows * 1000}`, headers: auth },
    'body without categoryId': { ...operations['POST /v1/pets'], body: '{"name":"Rex"}' },
    'body with id': {
      ...operations['POST /v1/pets'],
      body: '{"id":1,"name":"Rex","categoryId":7}',
    },
  };
}

export async function measureOperations(bench, { service, floor, ceiling }, operations) {
  const { rows, rounds, warmup } = bench.settings;
  log('Checking that the floor answers as the service does...');
  const differences = await parity(service, floor, {
    ...operations,
    ...refusals(operations, bench.auth, rows),
  });
  if (differences.length > 0) {
    throw new Error(
      `The floor does not answer as the service does:\n  ${differences.join('\n  ')}`,
    );
  }

  const targets = [service, floor];
  log(`Warm-up: ${warmup} s per operation and server...`);
  for (const op of Object.values(operations))
    for (const target of targets) await bench.run(target, op, { seconds: warmup });

  const samples = {};
  const ceilingRuns = [];
  for (let round = 1; round <= rounds; round++) {
    log(`Round ${round}/${rounds}...`);
    // Interleaved, and in turn first, so that neither server always meets a warmer machine.
    const order = round % 2 ? targets : [...targets].reverse();
    for (const [name, op] of Object.entries(operations))
      for (const target of order)
        ((samples[name] ??= {})[target.name] ??= []).push(await bench.run(target, op));
    ceilingRuns.push(await bench.run(ceiling, operations['GET /v1/pets/{id}']));
  }
  const report = Object.fromEntries(
    Object.keys(operations).map((name) => {
      const { service: serviceRuns, floor: floorRuns } = samples[name];
      const { ratio, rounds: roundRatios } = pairedRatio(serviceRuns, floorRuns);
      return [
        name,
        { service: summarize(serviceRuns), floor: summarize(floorRuns), ratio, roundRatios },
      ];
    }),
  );
  return { operations: report, ceiling: summarize(ceilingRuns) };
}
