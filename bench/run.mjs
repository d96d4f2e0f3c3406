// npm run bench: the service against a hand-written floor and a no-I/O ceiling, in one run, and
// whatever else the flags ask for (options.mjs). Writes bench/results/latest.{json,md} and, for a
// full run, the figures of docs/performance.md. With --capacity, the capacity scenario alone:
// bench/results/capacity.{json,md} and the figures of docs/capacity.md.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCapacityReport } from './capacity-report.mjs';
import {
  BenchEnvironment,
  insertKey,
  log,
  newKey,
  seedPets,
  seedPlacedOrders,
} from './environment.mjs';
import { options } from './options.mjs';
import { profileSummary } from './profile.mjs';
import { peakRssMb } from './processes.mjs';
import { markdown } from './report.mjs';
import { measureCapacity } from './scenarios/capacity.mjs';
import { measureCatalogue } from './scenarios/catalogue.mjs';
import { attributionMarkdown, measureAttribution } from './scenarios/attribution.mjs';
import { comparisonMarkdown, measureComparison } from './scenarios/compare.mjs';
import { measureFanOut } from './scenarios/fan-out.mjs';
import { measureUnanalysed } from './scenarios/unanalysed.mjs';
import { frameworksMarkdown, measureFrameworks } from './scenarios/frameworks.mjs';
import { measureDataScale } from './scenarios/data-scale.mjs';
import { measureHalfRate } from './scenarios/half-rate.mjs';
import { measureOperations } from './scenarios/operations.mjs';
import { measureOrganizations } from './scenarios/organizations.mjs';
import { measureFinding } from './scenarios/finding.mjs';
import { measureImports } from './scenarios/imports.mjs';
import { measureUploads } from './scenarios/uploads.mjs';
import { measureApplications } from './scenarios/applications.mjs';
import { measureScaleOut } from './scenarios/scale-out.mjs';
import { measureSoak } from './scenarios/soak.mjs';
import { measureStartUp } from './scenarios/start-up.mjs';
import { measureStore } from './scenarios/store.mjs';
import { measureWebhooks } from './scenarios/webhooks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'bench', 'results');
const profileDir = join(results, 'profiles');
const settings = options(process.argv.slice(2));
const bench = await new BenchEnvironment(root, {
  ...settings,
  profileDir: settings.profile || settings.attribute ? profileDir : undefined,
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

/** A scenario alone, its figures written to bench/results/<file>.json and printed. */
async function alone(measureScenario, file) {
  let measured;
  try {
    measured = await measureScenario(bench);
  } finally {
    await bench.close();
  }
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, `${file}.json`), `${JSON.stringify(measured, null, 2)}\n`);
  console.log(`\n${JSON.stringify(measured, null, 2)}\n\nWritten to bench/results/${file}.json.`);
  process.exit(0);
}
// The fan-out scenario alone (docs/adr/0048); pages never analysed (docs/adr/0050); the
// organisations' near page (docs/adr/0040).
if (settings.fanOut) await alone(measureFanOut, 'fan-out');
if (settings.unanalysed) await alone(measureUnanalysed, 'unanalysed');
if (settings.organizations) await alone(measureOrganizations, 'organizations');
// v1.3's finding pages against a plain page at --large-rows pets (docs/adr/0053).
if (settings.finding) await alone(measureFinding, 'finding');
// Listing pages while photos are uploaded and processed (docs/adr/0043).
if (settings.uploads) await alone(measureUploads, 'uploads');
// Deliveries: commit to receipt, their cost, a backlog drained under load (docs/adr/0031).
if (settings.webhooks) await alone(measureWebhooks, 'webhooks');
// Shelter data in and out: an import's time, an export's memory, the listing during an import
// (docs/adr/0066).
if (settings.imports) await alone(measureImports, 'imports');
// Adoption applications: a submission's CPU against a pet's creation, the status pages at
// --large-rows applications never analysed (docs/adr/0067).
if (settings.applications) await alone(measureApplications, 'applications');
// npm start on a current build, to its first live answer (docs/performance.md, "Start-up").
if (settings.startUp) await alone(measureStartUp, 'start-up');

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

/**
 * Two writes of a shelter's staff: a new name for a pet (a different pet and name each request)
 * and the approval of an order (a different placed order each request, seeded for every available
 * pet: run with enough --rows for the rounds, e.g. --rows=150000 for 3 rounds of 3 s).
 */
async function ownedWrites(client, rows) {
  const shelter = newKey();
  await insertKey(client, shelter, {
    name: 'shelter',
    // pets:write as well: the build before v1.3 corrects pets with it, as this one does with pets:manage.
    scopes: ['pets:read', 'pets:write', 'pets:manage', 'orders:read', 'orders:manage'],
  });
  await bench.untilKeysKnown();
  const headers = { authorization: `Bearer ${shelter}`, 'content-type': 'application/json' };
  const orders = await seedPlacedOrders(client);
  let renamed = 0;
  let approved = 0;
  return {
    'PATCH /v1/pets/{id} (staff)': {
      requests: [
        {
          method: 'PATCH',
          headers,
          setupRequest: (request) => {
            renamed += 1;
            return {
              ...request,
              path: `/v1/pets/${1 + (renamed % rows)}`,
              body: `{"name":"Rex ${renamed}"}`,
            };
          },
        },
      ],
    },
    'PATCH /v1/store/orders/{id} (approve)': {
      requests: [
        {
          method: 'PATCH',
          headers,
          body: '{"status":"approved"}',
          setupRequest: (request) => ({
            ...request,
            path: `/v1/store/orders/${orders.first + (approved++ % orders.count)}`,
          }),
        },
      ],
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
  await insertKey(main.client, bench.readOnlyKey, { name: 'read-only', scopes: ['pets:read'] });
  await insertKey(main.client, bench.limitedKey, { name: 'limited', perMinute: 1 });
  await bench.untilKeysKnown();
  if (settings.compare) {
    // An A/B comparison of two builds alone, with a report of its own: the hot operations and
    // the two writes whose ownership checks v1.3 added (docs/adr/0040).
    const comparison = await measureComparison(bench, env, {
      ...hotOperations(settings.rows),
      ...(await ownedWrites(main.client, settings.rows)),
    });
    const text = comparisonMarkdown(comparison, settings, bench.commit());
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, 'compare.md'), `${text}\n`);
    writeFileSync(join(results, 'compare.json'), `${JSON.stringify(comparison, null, 2)}\n`);
    console.log(`\n${text}\n\nWritten to bench/results/compare.md and compare.json.`);
    await bench.close();
    process.exit(0);
  }
  const floor = await bench.processes.script('floor', 'floor-server.mjs', 4302, env);
  if (settings.frameworks) {
    // What the frameworks cost by themselves, with a report of its own.
    const operations = hotOperations(settings.rows);
    const frameworks = await measureFrameworks(bench, env, service, floor, operations);
    const text = frameworksMarkdown(frameworks, settings, bench.commit(), bench.nodeVersion);
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, 'frameworks.md'), `${text}\n`);
    writeFileSync(join(results, 'frameworks.json'), `${JSON.stringify(frameworks, null, 2)}\n`);
    console.log(`\n${text}\n\nWritten to bench/results/frameworks.md and frameworks.json.`);
    await bench.close();
    process.exit(0);
  }
  if (settings.attribute) {
    // Where one operation's CPU time goes, with a report of its own; the profiles are written as
    // the servers exit.
    const attribution = await measureAttribution(
      bench,
      env,
      service,
      floor,
      hotOperations(settings.rows),
    );
    await bench.close();
    const text = attributionMarkdown(
      attribution,
      profileDir,
      settings,
      bench.commit(),
      bench.nodeVersion,
    );
    const file = `attribution-${settings.attribute}${bench.resultSuffix}.md`;
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, file), `${text}\n`);
    console.log(
      `\n${text}\n\nWritten to bench/results/${file}; the profiles are in ${profileDir}.`,
    );
    process.exit(0);
  }
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
  const catalogue = await measureCatalogue(bench);
  const organizations = await measureOrganizations(bench);
  const webhooks = await measureWebhooks(bench);
  const fanOut = await measureFanOut(bench);
  const unanalysed = await measureUnanalysed(bench);

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
    catalogue,
    organizations,
    webhooks,
    fanOut,
    unanalysed,
  };
} finally {
  await bench.close();
}

const text = markdown(report);
// A run on another Node than the bench's own keeps its own files and its own section of the docs.
const major = bench.nodeMajor;
const name = `latest${bench.resultSuffix}`;
mkdirSync(results, { recursive: true });
writeFileSync(join(results, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, `${name}.md`), `${text}\n`);
console.log(`\n${text}\n\nWritten to bench/results/${name}.json and bench/results/${name}.md.`);

if (!settings.smoke && !settings.profile) {
  // The figures replace those between the markers of this Node; the rest is the project's own text.
  const docs = join(root, 'docs', 'performance.md');
  const begin = `<!-- npm run bench on Node ${major} writes from here -->`;
  const end = `<!-- to here (Node ${major}) -->`;
  const current = readFileSync(docs, 'utf8');
  const section = `${begin}\n\n${text}\n\n${end}`;
  const [before, rest] = current.split(begin);
  const updated =
    rest === undefined
      ? `${current.trimEnd()}\n\n## The latest run on Node ${major}\n\n${section}\n`
      : `${before}${section}${rest.split(end)[1] ?? '\n'}`;
  // Formatted as the project's own text is, so that a run leaves `npm run lint` green.
  const prettier = await import('prettier');
  const style = await prettier.resolveConfig(docs);
  writeFileSync(docs, await prettier.format(updated, { ...style, filepath: docs }));
  console.log(`Written to docs/performance.md (Node ${major}).`);
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
