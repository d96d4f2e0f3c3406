// npm run bench: the service against a hand-written floor and a no-I/O ceiling, in one run.
// Environment: DATABASE_URL (a PostgreSQL server; the bench creates and drops its own database
// there) and REDIS_URL; defaults: the machine's, on loopback. Flags: --rows=N (default 10000),
// --rounds=N (3), --seconds=N per measurement (5), --connections=N (20), --scale-out (also two
// service instances against one).
import { fork, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const flag = (name, fallback) => {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!arg) return fallback;
  return arg.includes('=') ? Number(arg.split('=')[1]) : true;
};
const ROWS = flag('rows', 10_000);
const ROUNDS = flag('rounds', 3);
const SECONDS = flag('seconds', 5);
const CONNECTIONS = flag('connections', 20);
const SCALE_OUT = flag('scale-out', false);

const baseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const database = `pet_bench_${Date.now()}`;
const databaseUrl = Object.assign(new URL(baseUrl), { pathname: `/${database}` }).toString();
const prefix = `pet-bench:${Date.now()}:`;

const admin = new pg.Client({ connectionString: baseUrl.toString() });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);

const children = [];
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
}
const peakRssMb = (pid) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function waitReady(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready`);
}

function startService(port, extra = {}) {
  const child = spawn(process.execPath, [join(root, 'dist/src/main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return { name: 'service', pid: child.pid, url: `http://127.0.0.1:${port}` };
}

async function startFork(name, file, port) {
  const child = fork(join(root, 'bench', file), [], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
    },
  });
  children.push(child);
  await new Promise((resolve) => child.once('message', resolve));
  return { name, pid: child.pid, url: `http://127.0.0.1:${port}` };
}

const run = (opts) =>
  new Promise((resolve, reject) =>
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result))),
  );

try {
  const service = startService(4301);
  await waitReady(service.url);

  // Seed: pets by SQL, and one enterprise key with limits no run can reach.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(
    `INSERT INTO pets (name, category_id, status)
     SELECT 'pet ' || i, 1 + i % 50, (ARRAY['available', 'pending', 'sold'])[1 + i % 3] FROM generate_series(1, $1) i`,
    [ROWS],
  );
  await db.query('ANALYZE pets');
  const key = `pet_live_${randomBytes(32).toString('base64url')}`;
  await db.query(
    `INSERT INTO api_keys (name, plan, per_minute, per_day, prefix, hash) VALUES ('bench', 'enterprise', 1000000000, 1000000000, $1, $2)`,
    [key.slice(0, 13), createHash('sha256').update(key).digest('hex')],
  );
  const deepAfter = ROWS - 100;
  await db.end();

  const floor = await startFork('floor', 'floor-server.mjs', 4302);
  const ceiling = await startFork('ceiling', 'ceiling-server.mjs', 4303);
  const auth = { authorization: `Bearer ${key}` };
  const operations = {
    'GET /v1/pets?status&limit=20': {
      method: 'GET',
      path: '/v1/pets?status=available&limit=20',
      headers: auth,
    },
    'GET /v1/pets/{id}': { method: 'GET', path: `/v1/pets/${Math.floor(ROWS / 2)}`, headers: auth },
    'POST /v1/pets': {
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":7}',
    },
    'GET /v1/pets?after (deep page)': {
      method: 'GET',
      path: `/v1/pets?limit=20&after=${deepAfter}`,
      headers: auth,
    },
  };
  const targets = [service, floor];

  const measure = async (target, op, seconds) => {
    const before = cpuMs(target.pid);
    const result = await run({
      url: target.url + op.path,
      method: op.method,
      headers: op.headers,
      body: op.body,
      connections: CONNECTIONS,
      duration: seconds,
    });
    const cpu = cpuMs(target.pid) - before;
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      cpuMsPerRequest: result.requests.total ? cpu / result.requests.total : 0,
    };
  };

  console.log(
    `Warm-up (${Object.keys(operations).length} operations x ${targets.length} servers, 2 s each)...`,
  );
  for (const op of Object.values(operations))
    for (const target of targets) await measure(target, op, 2);

  const samples = {};
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`Round ${round}/${ROUNDS}...`);
    for (const [name, op] of Object.entries(operations)) {
      for (const target of targets)
        ((samples[name] ??= {})[target.name] ??= []).push(await measure(target, op, SECONDS));
    }
    ((samples.ceiling ??= {}).ceiling ??= []).push(
      await measure(ceiling, operations['GET /v1/pets?status&limit=20'], SECONDS),
    );
  }

  let scaleOut;
  if (SCALE_OUT) {
    const second = startService(4304);
    await waitReady(second.url);
    const op = operations['GET /v1/pets?status&limit=20'];
    const one = await measure(service, op, SECONDS);
    const both = await Promise.all([service, second].map((t) => measure(t, { ...op }, SECONDS)));
    scaleOut = { one: one.rps, two: both[0].rps + both[1].rps };
  }

  const mean = (xs, f) => xs.reduce((s, x) => s + x[f], 0) / xs.length;
  const summary = (xs) => ({
    rps: Math.round(mean(xs, 'rps')),
    p50: mean(xs, 'p50'),
    p97_5: mean(xs, 'p97_5'),
    p99: mean(xs, 'p99'),
    errors: xs.reduce((s, x) => s + x.errors + x.non2xx, 0),
    cpuMsPerRequest: Number(mean(xs, 'cpuMsPerRequest').toFixed(3)),
  });
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0].model, node: process.version },
    settings: { rows: ROWS, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS },
    operations: Object.fromEntries(
      Object.keys(operations).map((name) => {
        const s = summary(samples[name].service);
        const f = summary(samples[name].floor);
        return [name, { service: s, floor: f, ratio: Number((s.rps / f.rps).toFixed(2)) }];
      }),
    ),
    ceiling: summary(samples.ceiling.ceiling),
    servicePeakRssMb: Math.round(peakRssMb(service.pid)),
    floorPeakRssMb: Math.round(peakRssMb(floor.pid)),
    scaleOut,
  };

  const rows = Object.entries(report.operations).map(
    ([name, { service: s, floor: f, ratio }]) =>
      `| \`${name}\` | ${s.rps} | ${f.rps} | ${ratio} | ${s.p50} / ${s.p97_5} / ${s.p99} | ${f.p50} / ${f.p97_5} / ${f.p99} | ${s.errors} | ${s.cpuMsPerRequest} | ${f.cpuMsPerRequest} |`,
  );
  const markdown = [
    `Machine: ${report.machine.cpus} cores (${report.machine.model}), Node ${report.machine.node}; ${ROWS} pets; ${ROUNDS} interleaved rounds of ${SECONDS} s, ${CONNECTIONS} connections; ${report.date}.`,
    '',
    '| Operation | service req/s | floor req/s | service / floor | service p50 / p97.5 / p99 ms | floor p50 / p97.5 / p99 ms | service errors + non-2xx | service CPU ms/req | floor CPU ms/req |',
    '|---|---:|---:|---:|---|---|---:|---:|---:|',
    ...rows,
    '',
    `No-I/O ceiling (node:http, fixed body): ${report.ceiling.rps} req/s. Peak RSS: service ${report.servicePeakRssMb} MB, floor ${report.floorPeakRssMb} MB.` +
      (scaleOut
        ? ` Scale-out (list): one instance ${Math.round(scaleOut.one)} req/s, two ${Math.round(scaleOut.two)} req/s.`
        : ''),
  ].join('\n');
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(root, 'bench', 'results', 'latest.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  writeFileSync(join(root, 'bench', 'results', 'latest.md'), `${markdown}\n`);
  console.log(`\n${markdown}\n\nWritten to bench/results/latest.json and latest.md.`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}
