// --attribute=<list|get|create|deep>: where one operation's CPU time goes. The floor (node:http),
// the floor's own work behind Nest on its Fastify adapter (framework-floor-server.mjs) and the
// service each run under V8's CPU profiler and serve that operation alone, one after the other;
// each profile is then read over the seconds of its own measurement only (the probe's window),
// as microseconds of CPU per request by package. What the Nest floor spends over the floor is the
// design's framework; what the service spends over the Nest floor is the service's own.
import { log } from '../environment.mjs';
import { attributionTables } from '../profile.mjs';
import { startFrameworkFloor } from './frameworks.mjs';

/** The names --attribute takes, for the operations the bench measures against the floor. */
export const ATTRIBUTED_OPERATIONS = {
  list: 'GET /v1/pets?status=available&limit=20',
  get: 'GET /v1/pets/{id}',
  create: 'POST /v1/pets',
  deep: 'GET /v1/pets?after (deep page)',
};

/** Measures the operation on each server; the profiles are read once the servers have exited. */
export async function measureAttribution(bench, env, service, floor, operations) {
  const name = ATTRIBUTED_OPERATIONS[bench.settings.attribute];
  if (!name) {
    throw new Error(`--attribute takes one of ${Object.keys(ATTRIBUTED_OPERATIONS).join(', ')}`);
  }
  const nest = await startFrameworkFloor(bench, env, 'nest');
  const op = operations[name];
  const measured = {};
  for (const target of [floor, nest, service]) {
    log(`${name} on ${target.name}: ${bench.settings.warmup} s of warm-up, then measured...`);
    await bench.run(target, op, { seconds: bench.settings.warmup });
    const run = (measured[target.name] = await bench.run(target, op));
    if (!run.window) throw new Error(`${target.name}: no probe window`);
    // Every server must have answered as the floor does (2xx), or their costs say nothing.
    if (run.errors + run.non2xx > 0) {
      throw new Error(`${target.name}: ${run.errors} errors, ${run.non2xx} non-2xx answers`);
    }
  }
  return { operation: name, measured };
}

export function attributionMarkdown({ operation, measured }, profileDir, settings, commit, node) {
  const { packages, functions } = attributionTables(profileDir, measured);
  return [
    `Commit ${commit}, ${node}. \`${operation}\` alone on each server under V8's CPU profiler ` +
      `(so slower than unprofiled), ${settings.seconds} s at ${settings.connections} connections ` +
      "after a warm-up; each profile read over its measurement's seconds only. The profile sees " +
      "the main thread; the probe's CPU also counts V8's and libuv's helper threads.",
    '',
    packages,
    '',
    functions,
  ].join('\n');
}
