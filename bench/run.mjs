// npm run bench: the service against a hand-written floor and a no-I/O ceiling, in one run.
//
// Environment: DATABASE_URL (a PostgreSQL server: the bench creates a database of its own there
// and drops it afterwards) and REDIS_URL; by default the machine's, on loopback.
// Flags: --rows=N pets (10000), --rounds=N (5), --seconds=N per measurement (5), --warmup=N (3),
// --connections=N (20), --half-rate-seconds=N per fixed-rate measurement (10, in up to 3 rounds);
// --million: also compare list pages at 1,000,000 rows (--large-rows=N) against --rows, on a
// second database and instance;
// --scale-out: also run two service instances against one;
// --soak=N: also run N seconds of mixed load and sample the service's RSS;
// --log-requests: the service logs every request (LOG_LEVEL=log, to /dev/null) instead of warnings
// only, to measure what the request log costs;
// --profile: the service runs under V8's CPU profiler (slower, so its figures are not comparable)
// and the report ends with where its CPU time went (profile files in bench/results/profiles/).
import { createHash, randomBytes } from 'node:crypto';
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Redis from 'ioredis';
import pg from 'pg';
import { parity } from './parity.mjs';
import { profileSummary } from './profile.mjs';
import { measure, peakRssMb, Processes, rssMb } from './processes.mjs';
import { markdown, median, pairedRatio, summarize } from './report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const flag = (name, fallback) => {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!arg) return fallback;
  return arg.includes('=') ? Number(arg.split('=')[1]) : true;
};
const ROWS = flag('rows', 10_000);
const ROUNDS = flag('rounds', 5);
const SECONDS = flag('seconds', 5);
const WARMUP = flag('warmup', 3);
const CONNECTIONS = flag('connections', 20);
const HALF_RATE_SECONDS = flag('half-rate-seconds', 10);
const MILLION = flag('million', false);
const SCALE_OUT = flag('scale-out', false);
const SOAK = flag('soak', 0);
const LARGE_ROWS = flag('large-rows', 1_000_000);
const LOG_LEVEL = flag('log-requests', false) ? 'log' : 'warn';
const PROFILE = flag('profile', false);

const serverUrl = new URL(
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const stamp = Date.now();
const database = `pet_bench_${stamp}`;
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();
const largeDatabase = `${database}_large`;
const largeDatabaseUrl = Object.assign(new URL(serverUrl), {
  pathname: `/${largeDatabase}`,
}).toString();
const redisPrefix = `pet-bench:${stamp}:`;
const publicBaseUrl = 'http://127.0.0.1:4301/v1';
const env = {
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: redisPrefix,
  PUBLIC_BASE_URL: publicBaseUrl,
  LOG_LEVEL,
};

const log = (message) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const profileDir = join(root, 'bench', 'results', 'profiles');
const processes = new Processes(root, { profileDir: PROFILE ? profileDir : undefined });
const admin = new pg.Client({ connectionString: serverUrl.toString() });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const db = new pg.Client({ connectionString: databaseUrl });
const largeDb = new pg.Client({ connectionString: largeDatabaseUrl });

/** Adds `count` pets to a database, statuses in turn; returns the greatest id. */
async function seedPets(client, count) {
  await client.query(
    `INSERT INTO pets (name, category_id, status)
     SELECT 'pet ' || i, 1 + i % 50, (ARRAY['available', 'pending', 'sold'])[1 + i % 3]
       FROM generate_series(1, $1::int) i`,
    [count],
  );
  await client.query('VACUUM ANALYZE pets');
  return Number((await client.query('SELECT max(id) AS id FROM pets')).rows[0].id);
}

/** One enterprise key, hashed as the service stores keys, with limits no run can reach. */
async function insertKey(client, key) {
  await client.query(
    `INSERT INTO api_keys (name, plan, per_minute, per_day, prefix, hash)
     VALUES ('bench', 'enterprise', 1000000000, 1000000000, $1, $2)`,
    [key.slice(0, 13), createHash('sha256').update(key).digest('hex')],
  );
}

/** Mean time of a prepared statement seen from a client on loopback, in ms, over 300 runs. */
async function sqlMs(client, statement) {
  await client.query(statement);
  const start = process.hrtime.bigint();
  for (let i = 0; i < 300; i++) await client.query(statement);
  return Number((Number(process.hrtime.bigint() - start) / 1e6 / 300).toFixed(3));
}

try {
  log(`Starting the service on a database of its own (${database})...`);
  const service = await processes.service('service', 4301, env);
  await db.connect();
  await seedPets(db, ROWS);
  const key = `pet_live_${randomBytes(32).toString('base64url')}`;
  await insertKey(db, key);
  const floor = await processes.script('floor', 'floor-server.mjs', 4302, env);
  const ceiling = await processes.script('ceiling', 'ceiling-server.mjs', 4303, env);

  const auth = { authorization: `Bearer ${key}` };
  const listPath = (after) => `/v1/pets?limit=20&after=${after}`;
  const operations = {
    'GET /v1/pets?status=available&limit=20': {
      path: '/v1/pets?status=available&limit=20',
      headers: auth,
    },
    'GET /v1/pets/{id}': { path: `/v1/pets/${Math.floor(ROWS / 2)}`, headers: auth },
    'POST /v1/pets': {
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":7}',
    },
    'GET /v1/pets?after (deep page)': { path: listPath(ROWS - 100), headers: auth },
  };

  log('Checking that the floor answers as the service does...');
  const differences = await parity(service, floor, {
    ...operations,
    'no key': { path: '/v1/pets' },
    'limit=0': { path: '/v1/pets?limit=0', headers: auth },
    'unknown parameter': { path: '/v1/pets?sort=id', headers: auth },
    'petId=abc': { path: '/v1/pets/abc', headers: auth },
    'no such pet': { path: `/v1/pets/${ROWS * 1000}`, headers: auth },
    'body without categoryId': { ...operations['POST /v1/pets'], body: '{"name":"Rex"}' },
    'body with id': {
      ...operations['POST /v1/pets'],
      body: '{"id":1,"name":"Rex","categoryId":7}',
    },
  });
  if (differences.length > 0) {
    throw new Error(
      `The floor does not answer as the service does:\n  ${differences.join('\n  ')}`,
    );
  }

  const run = (target, op, extra = {}) =>
    measure(target, { ...op, seconds: SECONDS, connections: CONNECTIONS, ...extra });
  const targets = [service, floor];
  log(`Warm-up: ${WARMUP} s per operation and server...`);
  for (const op of Object.values(operations))
    for (const target of targets) await run(target, op, { seconds: WARMUP });

  const samples = {};
  for (let round = 1; round <= ROUNDS; round++) {
    log(`Round ${round}/${ROUNDS}...`);
    // Interleaved, and in turn first, so that neither server always meets a warmer machine.
    const order = round % 2 ? targets : [...targets].reverse();
    for (const [name, op] of Object.entries(operations))
      for (const target of order)
        ((samples[name] ??= {})[target.name] ??= []).push(await run(target, op));
    (samples.ceiling ??= []).push(await run(ceiling, operations['GET /v1/pets/{id}']));
  }
  const operationReport = Object.fromEntries(
    Object.keys(operations).map((name) => {
      const { service: serviceRuns, floor: floorRuns } = samples[name];
      const { ratio, rounds } = pairedRatio(serviceRuns, floorRuns);
      return [
        name,
        {
          service: summarize(serviceRuns),
          floor: summarize(floorRuns),
          ratio,
          roundRatios: rounds,
        },
      ];
    }),
  );

  const halfRateRuns = Math.max(1, Math.min(ROUNDS, 3));
  log(
    `Latency at half the service's rate: ${halfRateRuns} rounds of ${HALF_RATE_SECONDS} s per operation...`,
  );
  const halfRates = Object.fromEntries(
    Object.entries(operationReport).map(([name, { service: s }]) => [name, Math.round(s.rps / 2)]),
  );
  const halfRateSamples = {};
  for (let round = 0; round < halfRateRuns; round++) {
    for (const [name, op] of Object.entries(operations)) {
      (halfRateSamples[name] ??= []).push(
        await run(service, op, { seconds: HALF_RATE_SECONDS, rate: halfRates[name] }),
      );
    }
  }
  const halfRate = Object.fromEntries(
    Object.entries(halfRateSamples).map(([name, runs]) => [
      name,
      { rate: halfRates[name], ...summarize(runs) },
    ]),
  );

  let dataScale;
  if (MILLION) {
    // The same two pages at both sizes: the first page of a status, and the last page of all.
    const pages = {
      'GET /v1/pets?status=available&limit=20': {
        op: () => operations['GET /v1/pets?status=available&limit=20'],
        sql: () => ({
          name: 'first_page_by_status',
          text: 'SELECT id, name, category_id, status FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3',
          values: ['available', 0, 21],
        }),
      },
      'GET /v1/pets?after (deep page)': {
        op: (maxId) => ({ path: listPath(maxId - 100), headers: auth }),
        sql: (maxId) => ({
          name: 'deep_page',
          text: 'SELECT id, name, category_id, status FROM pets WHERE id > $1 ORDER BY id LIMIT $2',
          values: [maxId - 100, 21],
        }),
      },
    };
    // Two fresh instances, started and warmed alike: one on this database brought back to exactly
    // ROWS pets, one on a database of LARGE_ROWS. Each round measures both back to back, and the
    // ratio is taken per round.
    await db.query('DELETE FROM pets WHERE id > $1', [ROWS]);
    await db.query('VACUUM ANALYZE pets');
    log(`Data scale: a second database with ${LARGE_ROWS.toLocaleString('en')} pets...`);
    await admin.query(`CREATE DATABASE ${largeDatabase}`);
    const smallService = await processes.service('service-small', 4305, env);
    const largeService = await processes.service('service-large', 4306, {
      ...env,
      DATABASE_URL: largeDatabaseUrl,
    });
    await largeDb.connect();
    const sizes = [
      { name: 'small', target: smallService, maxId: ROWS },
      { name: 'large', target: largeService, maxId: await seedPets(largeDb, LARGE_ROWS) },
    ];
    await insertKey(largeDb, key);
    log('Data scale: measuring both sizes in interleaved rounds...');
    for (const size of sizes)
      for (const page of Object.values(pages))
        await run(size.target, page.op(size.maxId), { seconds: WARMUP });
    const runs = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, page] of Object.entries(pages)) {
        for (const size of round % 2 ? [...sizes].reverse() : sizes) {
          ((runs[name] ??= {})[size.name] ??= []).push(await run(size.target, page.op(size.maxId)));
        }
      }
    }
    dataScale = {};
    for (const [name, page] of Object.entries(pages)) {
      const { small, large } = runs[name];
      dataScale[name] = {
        smallRows: ROWS,
        largeRows: LARGE_ROWS,
        small: summarize(small),
        large: summarize(large),
        smallSqlMs: await sqlMs(db, page.sql(ROWS)),
        largeSqlMs: await sqlMs(largeDb, page.sql(sizes[1].maxId)),
        costRatio: pairedRatio(small, large).ratio,
      };
    }
    await processes.stop(smallService);
    await processes.stop(largeService);
  }

  let scaleOut;
  if (SCALE_OUT) {
    log('Scale-out: two instances against one...');
    const second = await processes.service('service-2', 4304, { ...env, RUN_MIGRATIONS: 'false' });
    const op = operations['GET /v1/pets?status=available&limit=20'];
    const one = [];
    const two = [];
    for (let round = 0; round < ROUNDS; round++) {
      one.push(await run(service, op));
      const both = await Promise.all([service, second].map((target) => run(target, op)));
      const rps = both[0].rps + both[1].rps;
      two.push({
        rps,
        cpuMsPerRequest: both.reduce((sum, b) => sum + b.cpuMsPerRequest * b.rps, 0) / rps,
        machineBusyPct: both[0].machineBusyPct,
      });
    }
    const of = (samples, field) => median(samples.map((s) => s[field]));
    scaleOut = {
      operation: 'GET /v1/pets?status=available&limit=20',
      one: Math.round(of(one, 'rps')),
      two: Math.round(of(two, 'rps')),
      ratio: Number((of(two, 'rps') / of(one, 'rps')).toFixed(2)),
      oneBusyPct: Math.round(of(one, 'machineBusyPct')),
      twoBusyPct: Math.round(of(two, 'machineBusyPct')),
      oneCpuMsPerRequest: Number(of(one, 'cpuMsPerRequest').toFixed(3)),
      twoCpuMsPerRequest: Number(of(two, 'cpuMsPerRequest').toFixed(3)),
    };
  }

  let soak;
  if (SOAK) {
    log(`Soak: ${SOAK} s of the four operations in turn, sampling the service's RSS...`);
    const sampleSeconds = 5;
    const samplesMb = [];
    const sampler = setInterval(
      () => samplesMb.push(Math.round(rssMb(service.pid))),
      sampleSeconds * 1000,
    );
    const result = await run(service, {}, { seconds: SOAK, requests: Object.values(operations) });
    clearInterval(sampler);
    // Flat: the second fifth of the run (after the warm-up of caches and code) against the last.
    const fifth = Math.max(1, Math.floor(samplesMb.length / 5));
    const mean = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
    const earlyMb = mean(samplesMb.slice(fifth, 2 * fifth));
    const lateMb = mean(samplesMb.slice(-fifth));
    soak = {
      seconds: SOAK,
      rps: Math.round(result.rps),
      sampleSeconds,
      samplesMb,
      earlyMb,
      lateMb,
      maxMb: Math.max(...samplesMb),
      growthMb: lateMb - earlyMb,
    };
  }

  const version = async (client, sql) => (await client.query(sql)).rows[0].v;
  const redis = new Redis(redisUrl);
  const report = {
    date: new Date().toISOString(),
    commit: execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0].model.trim(),
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      postgres: await version(db, "SELECT split_part(version(), ' on ', 1) AS v"),
      redis: /redis_version:(\S+)/.exec(await redis.info('server'))[1],
    },
    settings: {
      rows: ROWS,
      rounds: ROUNDS,
      seconds: SECONDS,
      warmup: WARMUP,
      connections: CONNECTIONS,
      logLevel: LOG_LEVEL,
      profiled: PROFILE,
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    },
    operations: operationReport,
    ceiling: summarize(samples.ceiling),
    halfRate,
    servicePeakRssMb: Math.round(peakRssMb(service.pid)),
    floorPeakRssMb: Math.round(peakRssMb(floor.pid)),
    dataScale,
    scaleOut,
    soak,
  };
  // The bench's counters expire with their windows; they need not wait for that.
  const stale = await redis.keys(`${redisPrefix}*`);
  if (stale.length > 0) await redis.del(...stale);
  redis.disconnect();

  const text = markdown(report);
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(root, 'bench', 'results', 'latest.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  writeFileSync(join(root, 'bench', 'results', 'latest.md'), `${text}\n`);
  console.log(`\n${text}\n\nWritten to bench/results/latest.json and bench/results/latest.md.`);
} finally {
  await processes.stopAll();
  await db.end().catch(() => undefined);
  await largeDb.end().catch(() => undefined);
  for (const name of [database, largeDatabase])
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}

if (PROFILE) {
  // Written as they exited: the service instance that served the rounds and the soak, the floor.
  const text = ['service', 'floor']
    .map(
      (name) =>
        `Where the ${name}'s CPU time went (V8 profile of the whole run):\n\n` +
        profileSummary(join(profileDir, `${name}.cpuprofile`)),
    )
    .join('\n\n');
  writeFileSync(join(root, 'bench', 'results', 'profile.md'), `${text}\n`);
  console.log(
    `\n${text}\n\nWritten to bench/results/profile.md; the profiles are in ${profileDir}.`,
  );
}
