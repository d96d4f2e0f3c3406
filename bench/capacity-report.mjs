// The capacity scenario's report (npm run bench -- --capacity): its markdown, and where it goes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** docs/capacity.md: the text above this line is the project's own, the figures below the run's. */
export const CAPACITY_MARKER =
  '<!-- npm run bench -- --capacity writes everything below this line. -->';

/** The operations as the report names them. */
const LABELS = {
  listPets: '`GET /v1/pets?status=available&limit=20` (listPets)',
  getPet: '`GET /v1/pets/{petId}` (getPet)',
  createPet: '`POST /v1/pets` (createPet)',
  placeOrder: '`POST /v1/store/orders` (placeOrder)',
  listOrders: '`GET /v1/store/orders?limit=20` (listOrders)',
  getInventory: '`GET /v1/store/inventory` (getInventory)',
  createPetWithKey: '`POST /v1/pets` with an `Idempotency-Key`',
};

const fixed = (value, digits) => Number(value.toFixed(digits));
const int = (value) => Math.round(value).toLocaleString('en');

const table = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

/** "a to b", or "a" when they round to the same. */
const range = (values) => {
  const [low, high] = [Math.min(...values), Math.max(...values)].map(Math.round);
  return low === high ? `${low}` : `${low} to ${high}`;
};

const share = (weights) => {
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  return Object.entries(weights)
    .map(([name, n]) => `${name} ${fixed((100 * n) / total, 1)} %`)
    .join(', ');
};

/** What the named processes of a run account for, in cores, against the machine's busy cores. */
function accounted(run, cores) {
  const perRequestMs =
    run.serviceMs + (run.redisUs + run.postgresUs + run.autovacuumUs + run.loadGeneratorUs) / 1000;
  const known = (run.rps * perRequestMs) / 1000;
  const busy = (run.machineBusyPct / 100) * cores;
  return {
    known: fixed(known, 2),
    busy: fixed(busy, 2),
    /** The machine's busy time that none of them accounts for: its other users, in %. */
    othersPct: Math.max(0, (100 * (busy - known)) / cores),
  };
}

export function capacityMarkdown(report) {
  const { machine, settings, operations, mixes, scaleOut, statements, script, pgCores } = report;
  const { maxConnections, reservedConnections, poolSize } = report.postgresSettings;
  const busy = Object.values(operations).map((o) => o.machineBusyPct);
  const lines = [
    `Machine: ${machine.cpus} cores (${machine.model}), ${machine.memoryGb} GB, Node ${machine.node}, ${machine.postgres}, Redis ${machine.redis}. ` +
      `Commit ${report.commit}; ${report.date}.`,
    `Settings: ${settings.rows.toLocaleString('en')} pets and 10,000 orders of the bench's key, ${settings.rounds} round${settings.rounds > 1 ? 's' : ''} of ${settings.seconds} s after a ${settings.warmup} s warm-up, ` +
      `${settings.connections} connections, one instance (NODE_ENV=production, LOG_LEVEL=${settings.logLevel}, DATABASE_POOL_SIZE=${poolSize}) on a Redis server and a database of the run's own; medians over the rounds. ` +
      `The machine was ${range(busy)} % busy during the runs (every process on it: the load generator and the machine's other users too). ` +
      `A fixed piece of work (100,000 SHA-256 hashes in Node) took ${report.calibration.before} CPU ms before the runs and ${report.calibration.after} after: ` +
      'the cores deliver less on a busy machine, and the CPU figures below grow with it. ' +
      `Command: \`${settings.command}\`.`,
    '',
    'Cost of one request in each tier (one instance at full load; CPU time per request, from /proc and Redis `INFO`; ' +
      "machine busy %: all processes, and in brackets the share none of the bench's processes accounts for):",
    '',
    table(
      [
        'Operation',
        'SQL statements',
        'req/s here',
        'machine busy % (others)',
        'service CPU ms',
        'req/s per service core',
        'Redis CPU µs',
        'req/s per Redis core',
        'script calls (other commands)',
        'µs inside the script (timed by Redis)',
        'PostgreSQL backends µs',
        'autovacuum µs',
        'req/s per PostgreSQL core',
        'server background µs (shared)',
        'load generator µs',
        'errors + non-2xx',
      ],
      Object.entries(operations).map(([name, o]) => [
        LABELS[name],
        o.statements,
        int(o.rps),
        `${Math.round(o.machineBusyPct)} (${Math.round(accounted(o, machine.cpus).othersPct)})`,
        fixed(o.serviceMs, 3),
        int(1000 / o.serviceMs),
        fixed(o.redisUs, 1),
        int(1e6 / o.redisUs),
        `${fixed(o.scriptsPerRequest, 2)} (${fixed(o.otherRedisPerRequest, 2)})`,
        fixed(o.scriptUsPerCall, 1),
        fixed(o.postgresUs, 1),
        fixed(o.autovacuumUs, 1),
        int(1e6 / (o.postgresUs + o.autovacuumUs)),
        fixed(o.backgroundUs, 1),
        fixed(o.loadGeneratorUs, 1),
        o.errors,
      ]),
    ),
    '',
    'Each statement on its own, from a plain client on loopback (named and prepared as the repositories run it, 300 runs): ' +
      'the mean round trip, and the backend CPU per statement, beside the backends CPU per request through the service:',
    '',
    table(
      ['Operation', 'round trip ms', 'backend CPU µs (plain client)', 'backends CPU µs (service)'],
      Object.entries(statements).map(([name, s]) => [
        LABELS[name],
        s.ms,
        s.cpuUs,
        fixed(operations[name].postgresUs, 1),
      ]),
    ),
    '',
    `The rate-limit script from a plain client, ${script.map((s) => `${s.inFlight} call${s.inFlight > 1 ? 's' : ''} in flight: ${s.redisUs} µs of Redis CPU per call (${s.scriptUsPerCall} µs inside the script)`).join('; ')}.`,
    '',
    "Mixes: the cost per request predicted from the operations' own (their weighted mean), measured by loading the mix itself, " +
      'and measured again with unprepared statements, as behind a transaction pooler (`DATABASE_PREPARED_STATEMENTS=false`: each statement parsed and planned every time):',
    '',
    table(
      [
        'Mix',
        'service CPU ms (predicted / measured)',
        'Redis CPU µs (predicted / measured)',
        'PostgreSQL CPU µs (predicted / measured)',
        'unprepared: PostgreSQL CPU µs (measured)',
      ],
      Object.entries(mixes).map(([name, { weights, predicted: p, measured: m, unprepared: u }]) => [
        `${name}: ${share(weights)}`,
        `${fixed(p.serviceMs, 3)} / ${fixed(m.serviceMs, 3)}`,
        `${fixed(p.redisUs, 1)} / ${fixed(m.redisUs, 1)}`,
        `${fixed(p.postgresUs, 1)} / ${fixed(m.postgresUs + m.autovacuumUs, 1)}`,
        fixed(u.postgresUs + u.autovacuumUs, 1),
      ]),
    ),
    '',
    `What follows, from the predicted costs: a service instance is one core, a Redis primary one core (one thread runs the commands), ` +
      `a PostgreSQL server ${pgCores} cores (\`--pg-cores\`); every tier at 100 %. Connections: ${maxConnections} allowed, ${reservedConnections} reserved for superusers, ` +
      `${poolSize} per instance. With the reads on replicas, the primary runs the writes' statements and each replica the reads'.`,
    '',
    table(
      [
        'Mix',
        'req/s per service core',
        'req/s per Redis core',
        'req/s per PostgreSQL core',
        'instances per Redis primary',
        `instances per PostgreSQL primary (${pgCores} cores)`,
        'PostgreSQL cores at which it saturates with Redis',
        'instances per PostgreSQL primary, by its connections',
        'instances per PostgreSQL primary behind a pooler (unprepared)',
        'reads on replicas: instances per primary / per replica',
        'first CPU tier to saturate',
      ],
      Object.entries(mixes).map(([name, { plan, unpreparedPlan }]) => [
        name,
        int(plan.perServiceCore),
        int(plan.perRedisCore),
        int(plan.perPostgresCore),
        plan.instancesPerRedisPrimary,
        plan.instancesPerPostgresPrimary,
        plan.postgresCoresMatchingRedis,
        plan.instancesByConnections,
        unpreparedPlan.instancesPerPostgresPrimary,
        `${plan.instancesPerWritingPrimary} / ${plan.instancesPerReplica}`,
        plan.firstCpuTier,
      ]),
    ),
    '',
    `When Redis is saturated it finds several calls waiting at each read; with the script's cost at ${script[1].inFlight} calls in flight (${script[1].redisUs} µs), ` +
      'one Redis primary would carry ' +
      Object.entries(mixes)
        .map(
          ([name, m]) => `${m.batchedRedisPlan.instancesPerRedisPrimary} instances (${name} mix)`,
        )
        .join(' and ') +
      ': the figures above, from the cost one instance causes, are the cautious ones.',
  ];
  const { one, two } = scaleOut;
  const [a, b] = [accounted(one, machine.cpus), accounted(two, machine.cpus)];
  lines.push(
    '',
    `The read mix on two instances at once against one (${settings.connections} connections each): ${int(one.rps)} req/s with one, ${int(two.rps)} with two (${fixed(two.rps / one.rps, 2)}×); ` +
      `the machine's ${machine.cpus} cores ${Math.round(one.machineBusyPct)} % and ${Math.round(two.machineBusyPct)} % busy. ` +
      `Per request with one and with two: service ${fixed(one.serviceMs, 3)} and ${fixed(two.serviceMs, 3)} CPU ms, Redis ${fixed(one.redisUs, 1)} and ${fixed(two.redisUs, 1)} µs, ` +
      `PostgreSQL ${fixed(one.postgresUs + one.autovacuumUs, 1)} and ${fixed(two.postgresUs + two.autovacuumUs, 1)} µs, load generator ${fixed(one.loadGeneratorUs, 1)} and ${fixed(two.loadGeneratorUs, 1)} µs. ` +
      `These four account for ${a.known} and ${b.known} of the ${a.busy} and ${b.busy} busy cores; the rest is the machine's other processes.`,
  );
  return lines.join('\n');
}

/** Writes bench/results/capacity.{json,md} and, unless a smoke run, docs/capacity.md's figures. */
export function writeCapacityReport(root, report, { smoke }) {
  const text = capacityMarkdown(report);
  const results = join(root, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'capacity.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(results, 'capacity.md'), `${text}\n`);
  console.log(`\n${text}\n\nWritten to bench/results/capacity.json and bench/results/capacity.md.`);
  if (smoke) return;
  const docs = join(root, 'docs', 'capacity.md');
  const [head] = readFileSync(docs, 'utf8').split(CAPACITY_MARKER);
  writeFileSync(docs, `${head}${CAPACITY_MARKER}\n\n${text}\n`);
  console.log('Written to docs/capacity.md.');
}
