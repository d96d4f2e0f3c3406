// npm run bench: the service against a hand-written floor and a no-I/O ceiling, in one run, and
// whatever else the flags ask for (options.mjs). Writes bench/results/latest.{json,md} and, for a
// full run, the figures of docs/performance.md. With --capacity, the capacity scenario alone:
// bench/results/capacity.{json,md} and the figures of docs/capacity.md.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCapacityReport } from './capacity-report.mjs';
import { BenchEnvironment, insertKey, log, seedPets } from './environment.mjs';
import { options } from './options.mjs';
import { profileSummary } from './profile.mjs';
import { peakRssMb } from './processes.mjs';
import { markdown } from './report.mjs';
import { measureCapacity } from './scenarios/capacity.mjs';
import { measureDataScale } from './scenarios/data-scale.mjs';
import { measureHalfRate } from './scenarios/half-rate.mjs';
import { measureOperations } from './scenarios/operations.mjs';
import { measureScaleOut } from './scenarios/scale-out.mjs';
import { measureSoak } from './scenarios/soak.mjs';
import { measureStore } from './scenarios/store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'bench', 'results');
const profileDir = join(results, 'profiles');
const settings = options(process.argv.slice(2));
const bench = await new BenchEnvironment(root, {
  ...settings,
  profileDir: settings.profile ? profileDir : undefined,
}).open();

if (settings.capacity) {
  // The capacity scenario alone, with a report of its own: docs/capacity.md.
  let capacity;
  try {
    capacity = await measureCapacity(bench);
  } finally {
    await bench.close();
  }
  writeCapacityReport(root, capacity, settings);
  process.exit(0);
}

/** The operations measured against the floor, with their requests. */
function hotOperations(rows) {
  const { auth } = bench;
  return {
    'GET /v1/pets?status=available&limit=20': {
      path: '/v1/pets?status=available&limit=20',
      headers: auth,
    },
    'GET /v1/pets/{id}': { path: `/v1/pets/${Math.floor(rows / 2)}`, headers: auth },
    'POST /v1/pets': {
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":7}',
    },
    'GET /v1/pets?after (deep page)': {
      path: `/v1/pets?limit=20&after=${rows - 100}`,
      headers: auth,
    },
  };
}

let report;
try {
  const main = await bench.database();
  log(`Starting the service on a database of its own (${main.name})...`);
  const env = { ...bench.env, DATABASE_URL: main.url };
  const service = await bench.processes.service('service', 4301, env);
  await main.client.connect();
  await seedPets(main.client, settings.rows);
  await insertKey(main.client, bench.key);
  const floor = await bench.processes.script('floor', 'floor-server.mjs', 4302, env);
  const ceiling = await bench.processes.script('ceiling', 'ceiling-server.mjs', 4303, env);

  const operations = hotOperations(settings.rows);
  const measured = await measureOperations(bench, { service, floor, ceiling }, operations);
  const halfRate = await measureHalfRate(bench, service, operations, measured.operations);
  const dataScale = settings.million ? await measureDataScale(bench, main, operations) : undefined;
  const scaleOut = settings.scaleOut
    ? await measureScaleOut(
        bench,
        service,
        main.url,
        operations['GET /v1/pets?status=available&limit=20'],
      )
    : undefined;
  const soak = settings.soak ? await measureSoak(bench, service, operations) : undefined;
  const store = await measureStore(bench);

  report = {
    date: new Date().toISOString(),
    commit: bench.commit(),
    machine: await bench.machine(main.client),
    settings: {
      rows: settings.rows,
      rounds: settings.rounds,
      seconds: settings.seconds,
      warmup: settings.warmup,
      connections: settings.connections,
      logLevel: settings.logLevel,
      profiled: settings.profile,
      command: settings.command,
    },
    ...measured,
    halfRate,
    servicePeakRssMb: Math.round(peakRssMb(service.pid)),
    floorPeakRssMb: Math.round(peakRssMb(floor.pid)),
    dataScale,
    scaleOut,
    soak,
    store,
  };
} finally {
  await bench.close();
}

const text = markdown(report);
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, 'latest.md'), `${text}\n`);
console.log(`\n${text}\n\nWritten to bench/results/latest.json and bench/results/latest.md.`);

if (!settings.smoke && !settings.profile) {
  // The figures replace those below the marker; the text above it is the project's own.
  const docs = join(root, 'docs', 'performance.md');
  const marker = '<!-- npm run bench writes everything below this line. -->';
  const [head] = readFileSync(docs, 'utf8').split(marker);
  writeFileSync(docs, `${head}${marker}\n\n${text}\n`);
  console.log('Written to docs/performance.md.');
}

if (settings.profile) {
  // Written as they exited: the service instance that served the rounds and the soak, the floor.
  const summary = ['service', 'floor']
    .map(
      (name) =>
        `Where the ${name}'s CPU time went (V8 profile of the whole run):\n\n` +
        profileSummary(join(profileDir, `${name}.cpuprofile`)),
    )
    .join('\n\n');
  writeFileSync(join(results, 'profile.md'), `${summary}\n`);
  console.log(
    `\n${summary}\n\nWritten to bench/results/profile.md; the profiles are in ${profileDir}.`,
  );
}
