// What one request costs each tier — the service's CPU, the Redis server's CPU, the PostgreSQL
// backends' CPU — per operation and for a read and a write mix, and what follows: requests per
// second per core of each tier, and how many service instances one Redis primary and one
// PostgreSQL primary carry. On an instance, a Redis server and a database of the run's own, so
// that every figure is the bench's load alone. CPU time per request, not throughput, is what the
// figures stand on: it holds on a shared, busy machine where throughput does not.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import {
  closeOpenOrders,
  insertKey,
  log,
  seedOrderablePets,
  seedOrders,
  seedPets,
} from '../environment.mjs';
import { median } from '../report.mjs';

/** A read mix (90 % reads, 10 % writes) and a write mix (50 % writes), in requests of each. */
export const MIXES = {
  read: { listPets: 9, getPet: 9, listOrders: 9, getInventory: 9, createPet: 2, placeOrder: 2 },
  write: { listPets: 1, getPet: 1, listOrders: 1, getInventory: 1, createPet: 2, placeOrder: 2 },
};

/** Requests an operation's warm-up makes at least (in up to 5 rounds of --warmup seconds). */
const WARM_REQUESTS = 10_000;

/**
 * How fast the cores are just now: the CPU ms a fixed piece of work takes (100,000 SHA-256 of 32
 * bytes, in this process). Another run's figures compare with this one's in proportion.
 */
function calibrate() {
  const start = process.cpuUsage();
  let digest = Buffer.alloc(32);
  for (let i = 0; i < 100_000; i++) digest = createHash('sha256').update(digest).digest();
  const { user, system } = process.cpuUsage(start);
  return round((user + system) / 1000);
}

/** A port nobody listens on now. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** CPU time a single-threaded process has spent, in ns (the scheduler's count, not ticks). */
function threadNs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return null; // Exited.
  }
}

const round = (value, digits = 0) => Number(value.toFixed(digits));

/** A Redis server of the run's own, on a free port: nothing but the bench's service talks to it. */
async function startRedis(bench) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pet-bench-redis-'));
  const child = bench.processes.program('redis-server', [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
    ...['--save', '', '--appendonly', 'no'],
  ]);
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { retryStrategy: (attempt) => (attempt > 50 ? null : 100) });
  client.on('error', () => undefined); // Refused until the server listens: retried.
  await Promise.race([
    client.ping(),
    new Promise((_, reject) =>
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`))),
    ),
  ]);
  const close = async () => {
    client.disconnect();
    await bench.processes.stop({ pid: child.pid });
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, pid: child.pid, client, close };
}

/** The Redis server's CPU time (µs) and its commands so far, by name: calls and µs spent. */
async function redisCounters(client) {
  const info = await client.call('INFO', 'cpu', 'commandstats');
  const field = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)[1]);
  const commands = {};
  for (const [, name, calls, usec] of info.matchAll(/^cmdstat_(\S+?):calls=(\d+),usec=(\d+)/gm))
    commands[name] = { calls: Number(calls), usec: Number(usec) };
  return { cpuUs: (field('used_cpu_user') + field('used_cpu_sys')) * 1e6, commands };
}

/**
 * What the server did between two readings: CPU µs; script calls and the µs Redis timed inside
 * them (wall-clock time: it grows when the machine preempts Redis, the CPU time does not); and the
 * commands sent outside the script.
 */
function redisDelta(before, after) {
  const delta = (name, field) =>
    (after.commands[name]?.[field] ?? 0) - (before.commands[name]?.[field] ?? 0);
  const scripts = ['evalsha', 'eval'];
  // Redis counts the commands a script calls as commands of their own: these are the script's.
  const inScript = ['time', 'pttl', 'get', 'incr', 'pexpire', 'del', 'set'];
  const names = Object.keys(after.commands).filter(
    (n) => n !== 'info' && !scripts.includes(n) && !inScript.includes(n),
  );
  return {
    cpuUs: after.cpuUs - before.cpuUs,
    scriptCalls: delta('evalsha', 'calls') + delta('eval', 'calls'),
    scriptUs: delta('evalsha', 'usec') + delta('eval', 'usec'),
    otherCalls: names.reduce((sum, name) => sum + delta(name, 'calls'), 0),
  };
}

/**
 * The CPU time PostgreSQL's processes spend meanwhile, from /proc: the backends serving the
 * database (every pool connection of every instance), the autovacuum workers cleaning it, and the
 * server's own background writers, which serve every database of the server (the machine's other
 * users too: an upper bound). Sampled every 250 ms, so that processes that come and go are counted.
 */
export class PostgresCpu {
  constructor(client, database) {
    this.client = client;
    this.database = database;
  }

  async start() {
    this.first = new Map();
    this.last = new Map();
    await this.sample(true);
    this.timer = setInterval(() => {
      this.pending ??= this.sample(false).finally(() => (this.pending = undefined));
    }, 250);
  }

  /** CPU ns of each group since start(). */
  async stop() {
    clearInterval(this.timer);
    await this.pending;
    await this.sample(false);
    const ns = { backends: 0, autovacuum: 0, background: 0 };
    for (const [pid, { group, ns: start }] of this.first) ns[group] += this.last.get(pid) - start;
    return ns;
  }

  async sample(initial) {
    const { rows } = await this.client.query(
      `SELECT pid, backend_type FROM pg_stat_activity
        WHERE pid <> pg_backend_pid()
          AND (datname = $1 OR backend_type IN ('checkpointer', 'background writer', 'walwriter'))`,
      [this.database],
    );
    for (const { pid, backend_type: type } of rows) {
      const ns = threadNs(pid);
      if (ns === null) continue;
      const group =
        type === 'client backend'
          ? 'backends'
          : type === 'autovacuum worker'
            ? 'autovacuum'
            : 'background';
      // A process first seen after the start began after it: all of its time is the run's.
      if (!this.first.has(pid)) this.first.set(pid, { group, ns: initial ? ns : 0 });
      this.last.set(pid, ns);
    }
  }
}

/**
 * Loads the instances with one operation or a mix (all at once when several) and returns what
 * each tier spent per request, and what the client saw.
 */
async function costs(bench, tiers, targets, op) {
  const redisBefore = await redisCounters(tiers.redis.client);
  await tiers.postgres.start();
  const loadBefore = process.cpuUsage();
  const runs = await Promise.all(targets.map((target) => bench.run(target, op)));
  const loadGenerator = process.cpuUsage(loadBefore);
  const postgres = await tiers.postgres.stop();
  const redis = redisDelta(redisBefore, await redisCounters(tiers.redis.client));
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const per = (value) => (requests ? value / requests : 0);
  return {
    rps: runs.reduce((sum, r) => sum + r.rps, 0),
    p99: Math.max(...runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    serviceMs: per(runs.reduce((sum, r) => sum + r.cpuMsPerRequest * r.requests, 0)),
    redisUs: per(redis.cpuUs),
    scriptUsPerCall: redis.scriptCalls ? redis.scriptUs / redis.scriptCalls : 0,
    scriptsPerRequest: per(redis.scriptCalls),
    otherRedisPerRequest: per(redis.otherCalls),
    postgresUs: per(postgres.backends / 1e3),
    autovacuumUs: per(postgres.autovacuum / 1e3),
    backgroundUs: per(postgres.background / 1e3),
    loadGeneratorUs: per(loadGenerator.user + loadGenerator.system),
    machineBusyPct: runs[0].machineBusyPct,
  };
}

/** The median of every figure over the rounds; failures summed. */
function medians(samples) {
  const fields = Object.keys(samples[0]).filter((f) => f !== 'errors');
  return {
    ...Object.fromEntries(fields.map((f) => [f, median(samples.map((s) => s[f]))])),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
  };
}

/** A request list in which each operation appears as often as the mix says, interleaved. */
function mixRequests(operations, mix) {
  const requests = [];
  for (let i = 0; i < Math.max(...Object.values(mix)); i++)
    for (const [name, count] of Object.entries(mix))
      if (i < count) requests.push(operations[name].request);
  return { requests };
}

/** The operations that write: on a primary whatever else reads from replicas. */
const WRITES = ['createPet', 'placeOrder'];

/**
 * A mix's cost per request in each tier, from the operations' own: the weighted mean. PostgreSQL's
 * also split into the part of its writes and the part of its reads (per request of the mix).
 */
function weighted(perOperation, mix) {
  const total = Object.values(mix).reduce((a, b) => a + b, 0);
  const of = (field, names = Object.keys(mix)) =>
    names.reduce((sum, name) => sum + (mix[name] / total) * perOperation[name][field], 0);
  const postgres = (names) => of('postgresUs', names) + of('autovacuumUs', names);
  const reads = Object.keys(mix).filter((name) => !WRITES.includes(name));
  return {
    serviceMs: of('serviceMs'),
    redisUs: of('redisUs'),
    postgresUs: postgres(Object.keys(mix)),
    postgresWritesUs: postgres(WRITES),
    postgresReadsUs: postgres(reads),
  };
}

/**
 * Requests per second per core of each tier, and the service instances (one core each) that one
 * Redis primary (one core: Redis runs commands on one thread) and one PostgreSQL server of
 * `pgCores` cores carry before that tier is saturated: the primary alone, or, with the reads on
 * replicas, the primary for the writes and each replica for the reads. The connections the server
 * allows bound the instances too, unless a pooler stands between.
 */
export function plan(costs, { pgCores, instancesByConnections }) {
  const { serviceMs, redisUs, postgresUs, postgresWritesUs, postgresReadsUs } = costs;
  const perServiceCore = 1000 / serviceMs;
  const instances = (us, cores = 1) => round((cores * 1e6) / us / perServiceCore, 1);
  const perRedisPrimary = instances(redisUs);
  const perPostgresPrimary = instances(postgresUs, pgCores);
  return {
    perServiceCore: round(perServiceCore),
    perRedisCore: round(1e6 / redisUs),
    perPostgresCore: round(1e6 / postgresUs),
    perPostgresPrimary: round((pgCores * 1e6) / postgresUs),
    instancesPerRedisPrimary: perRedisPrimary,
    instancesPerPostgresPrimary: perPostgresPrimary,
    instancesByConnections,
    // The PostgreSQL cores below which PostgreSQL saturates before one Redis primary does.
    postgresCoresMatchingRedis: round(postgresUs / redisUs, 1),
    ...(postgresWritesUs === undefined
      ? {}
      : {
          instancesPerWritingPrimary: instances(postgresWritesUs, pgCores),
          instancesPerReplica: instances(postgresReadsUs, pgCores),
        }),
    firstCpuTier: perRedisPrimary <= perPostgresPrimary ? 'Redis' : 'PostgreSQL',
  };
}

/**
 * Each operation's statement as its repository runs it (named, prepared), from a plain client on
 * loopback, 300 times: the mean round trip in ms, and the backend's CPU µs per statement.
 */
async function statementCosts(client, statements) {
  const [{ pid }] = (await client.query('SELECT pg_backend_pid() AS pid')).rows;
  const result = {};
  for (const [name, statement] of Object.entries(statements)) {
    await client.query(statement());
    const cpuBefore = threadNs(pid);
    const start = process.hrtime.bigint();
    for (let i = 0; i < 300; i++) await client.query(statement());
    result[name] = {
      ms: round(Number(process.hrtime.bigint() - start) / 1e6 / 300, 3),
      cpuUs: round((threadNs(pid) - cpuBefore) / 1e3 / 300, 1),
    };
  }
  return result;
}

/**
 * The rate-limit script on its own, from a plain client, `calls` times with `inFlight` calls
 * outstanding at once: the Redis server's CPU µs per call. One at a time, every call is a read and
 * a write of its own for the server; many at once, one read can bring several.
 */
async function scriptCosts(root, redisUrl, calls, inFlight) {
  const { RedisWindowStore } = createRequire(import.meta.url)(
    join(root, 'dist/libs/rate-limit/src/redis-window-store.js'),
  );
  const client = new Redis(redisUrl);
  const admin = new Redis(redisUrl);
  try {
    const store = new RedisWindowStore(client, 'pet-bench-script:');
    const hit = (i) =>
      store.hit({
        subject: `key:${i % 100}`,
        limits: { perMinute: 1e9, perDay: 1e9 },
        now: Date.now(),
        banThreshold: 30,
        banMs: 600_000,
      });
    await hit(0);
    const before = await redisCounters(admin);
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < calls) await hit(next++);
      }),
    );
    const delta = redisDelta(before, await redisCounters(admin));
    return {
      inFlight,
      redisUs: round(delta.cpuUs / delta.scriptCalls, 1),
      scriptUsPerCall: round(delta.scriptUs / delta.scriptCalls, 1),
    };
  } finally {
    client.disconnect();
    admin.disconnect();
  }
}

export async function measureCapacity(bench) {
  const { rows, rounds, warmup, seconds, pgCores } = bench.settings;
  log('Capacity: a Redis server, a database and an instance of the run’s own...');
  const redis = await startRedis(bench);
  const db = await bench.database('_capacity');
  const env = {
    ...bench.env,
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    DATABASE_POOL_SIZE: '10',
  };
  const service = await bench.processes.service('service-capacity', await freePort(), env);
  await db.client.connect();
  await seedPets(db.client, rows);
  await insertKey(db.client, bench.key);
  const keyId = await seedOrders(db.client, 10_000);
  // More than any run orders: 6,000 req/s for every warm-up and twice every round's runs (those of
  // placeOrder alone, and the mixes' shares of it, add up to less).
  const ordering = 15 * warmup + 2 * rounds * seconds;
  let nextPet = await seedOrderablePets(db.client, 6_000 * ordering + 1_000);
  await db.client.query('VACUUM ANALYZE');

  const json = { ...bench.auth, 'content-type': 'application/json' };
  const get = (path) => ({ method: 'GET', path, headers: bench.auth });
  let idempotencyKey = 0;
  const operations = {
    listPets: { ...get('/v1/pets?status=available&limit=20'), statements: 1 },
    getPet: { ...get(`/v1/pets/${Math.floor(rows / 2)}`), statements: 1 },
    createPet: {
      method: 'POST',
      path: '/v1/pets',
      headers: json,
      body: '{"name":"Rex","categoryId":7}',
      // BEGIN with the insert, then its event with COMMIT (two round trips, ADR 0033).
      statements: 4,
    },
    placeOrder: {
      method: 'POST',
      path: '/v1/store/orders',
      headers: json,
      // A pet of its own for every order: each is a 201 that moves a pet to pending.
      setupRequest: (request) => ({ ...request, body: `{"petId":${nextPet++}}` }),
      // BEGIN and the key's lock with the placement (under the key's cap), then the events with
      // COMMIT (two round trips, ADR 0033).
      statements: 5,
    },
    listOrders: { ...get('/v1/store/orders?limit=20'), statements: 1 },
    getInventory: { ...get('/v1/store/inventory'), statements: 1 },
    // Not in the mixes: what a client that makes every create safe to retry adds.
    createPetWithKey: {
      method: 'POST',
      path: '/v1/pets',
      headers: json,
      body: '{"name":"Rex","categoryId":7}',
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, 'idempotency-key': `bench-${idempotencyKey++}` },
      }),
      // BEGIN with the key's claim, the insert, then the event and the recorded response with
      // COMMIT (three round trips).
      statements: 6,
    },
  };
  for (const op of Object.values(operations)) {
    const { statements: _, ...request } = op;
    op.request = request;
  }
  const tiers = { redis, postgres: new PostgresCpu(db.client, db.name) };
  const single = (name) => ({ requests: [operations[name].request] });
  // Each measurement, and each warm-up, starts from a key with no open order (closeOpenOrders).
  const measured = async (targets, op) => {
    await closeOpenOrders(db.client, keyId);
    return costs(bench, tiers, targets, op);
  };

  // V8 optimizes a path after some thousands of calls, whatever the time: on a busy machine a
  // warm-up of a few seconds is too few requests, so each repeats until it has made enough.
  const warm = async (target, op) => {
    let made = 0;
    await closeOpenOrders(db.client, keyId);
    for (let i = 0; i < 5 && made < WARM_REQUESTS; i++)
      made += (await bench.run(target, op, { seconds: warmup })).requests;
  };
  log('Capacity: warm-up...');
  const calibration = { before: calibrate() };
  for (const name of Object.keys(operations)) await warm(service, single(name));

  const runs = {};
  const mixRuns = { read: [], write: [] };
  for (let r = 1; r <= rounds; r++) {
    log(`Capacity: round ${r}/${rounds}...`);
    const names = Object.keys(operations);
    // In turn first, so that no operation always meets the same state of the machine.
    const order = [...names.slice(r % names.length), ...names.slice(0, r % names.length)];
    for (const name of order) (runs[name] ??= []).push(await measured([service], single(name)));
    for (const mix of Object.keys(MIXES))
      mixRuns[mix].push(await measured([service], mixRequests(operations, MIXES[mix])));
  }

  log('Capacity: the read mix on two instances against one...');
  const second = await bench.processes.service('service-capacity-2', await freePort(), env);
  const readMix = mixRequests(operations, MIXES.read);
  const one = [];
  const two = [];
  for (let r = 0; r < rounds; r++) {
    one.push(await measured([service], readMix));
    two.push(await measured([service, second], readMix));
  }
  await bench.processes.stop(second);

  // Behind a pooler in transaction mode the statements run unnamed: parsed and planned each time.
  log('Capacity: the mixes with unprepared statements, as behind a transaction pooler...');
  const unprepared = await bench.processes.service(
    'service-capacity-unprepared',
    await freePort(),
    { ...env, DATABASE_PREPARED_STATEMENTS: 'false' },
  );
  const unpreparedRuns = { read: [], write: [] };
  for (const mix of Object.keys(MIXES)) await warm(unprepared, mixRequests(operations, MIXES[mix]));
  for (let r = 0; r < rounds; r++)
    for (const mix of Object.keys(MIXES))
      unpreparedRuns[mix].push(await measured([unprepared], mixRequests(operations, MIXES[mix])));
  await bench.processes.stop(unprepared);

  log('Capacity: statements and the rate-limit script on their own...');
  const owner = [keyId];
  const instant = (c) => `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const orderColumns = `id, pet_id AS "petId", owner_key_id AS "ownerKeyId", status,
  ${instant('placed_at')} AS "placedAt", ${instant('updated_at')} AS "updatedAt"`;
  const petColumns = `id, name, category_id AS "categoryId", status, version,
  ${instant('created_at')} AS "createdAt", ${instant('updated_at')} AS "updatedAt"`;
  // The placement's statement counts the key's open orders, as the runs' did: from none, as theirs.
  await closeOpenOrders(db.client, keyId);
  const statements = await statementCosts(db.client, {
    listPets: () => ({
      name: 'capacity_pets_page_by_status',
      text: `SELECT ${petColumns} FROM pets
             WHERE deleted_at IS NULL AND status = $1 AND id > $2 ORDER BY id LIMIT $3`,
      values: ['available', 0, 21],
    }),
    getPet: () => ({
      name: 'capacity_pets_find_by_id',
      text: `SELECT ${petColumns} FROM pets WHERE id = $1 AND deleted_at IS NULL`,
      values: [Math.floor(rows / 2)],
    }),
    createPet: () => ({
      name: 'capacity_pets_insert',
      text: `WITH "category" AS (
               INSERT INTO categories (id) VALUES ($2) ON CONFLICT DO NOTHING
             )
             INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${petColumns}`,
      values: ['Rex', 7, 'available'],
    }),
    placeOrder: () => ({
      name: 'capacity_orders_place',
      // The repository's statement, which runs after BEGIN and the key's advisory lock.
      text: `WITH "pet" AS (
               UPDATE pets SET status = $3
                WHERE id = $1 AND status = $2 AND deleted_at IS NULL
                  AND (SELECT count(*) FROM orders
                        WHERE owner_key_id = $4 AND status IN ('placed', 'approved')) < $5
               RETURNING id
             )
             INSERT INTO orders (pet_id, owner_key_id, status, expires_at)
             SELECT id, $4, 'placed', now() + make_interval(secs => $6) FROM "pet"
             RETURNING ${orderColumns}`,
      values: [nextPet++, 'available', 'pending', keyId, 1_000_000_000, 259_200],
    }),
    listOrders: () => ({
      name: 'capacity_orders_page_of_owner',
      text: `SELECT ${orderColumns} FROM orders
             WHERE ($1::varchar IS NULL OR status = $1) AND id > $2 AND owner_key_id = $4
             ORDER BY id LIMIT $3`,
      values: [null, 0, 21, ...owner],
    }),
    getInventory: () => ({
      name: 'capacity_pet_status_counts_sum',
      text: 'SELECT status, sum(count)::bigint AS count FROM pet_status_counts GROUP BY status',
      values: [],
    }),
  });
  const calls = bench.settings.smoke ? 2_000 : 20_000;
  const script = [
    await scriptCosts(bench.root, redis.url, calls, 1),
    await scriptCosts(bench.root, redis.url, calls, 32),
  ];

  const settingOf = async (name) =>
    Number((await db.client.query(`SELECT current_setting($1) AS v`, [name])).rows[0].v);
  const postgresSettings = {
    maxConnections: await settingOf('max_connections'),
    reservedConnections: await settingOf('superuser_reserved_connections'),
    poolSize: Number(env.DATABASE_POOL_SIZE),
  };
  const instancesByConnections = Math.floor(
    (postgresSettings.maxConnections - postgresSettings.reservedConnections) /
      postgresSettings.poolSize,
  );
  const machine = await bench.machine(db.client);
  calibration.after = calibrate();
  await bench.processes.stop(service);
  await redis.close();

  const perOperation = Object.fromEntries(
    Object.entries(runs).map(([name, samples]) => [
      name,
      { ...medians(samples), statements: operations[name].statements },
    ]),
  );
  const mixes = Object.fromEntries(
    Object.entries(MIXES).map(([mix, weights]) => {
      const predicted = weighted(perOperation, weights);
      const measured = medians(mixRuns[mix]);
      const withPooler = medians(unpreparedRuns[mix]);
      return [
        mix,
        {
          weights,
          predicted,
          measured,
          plan: plan(predicted, { pgCores, instancesByConnections }),
          unprepared: withPooler,
          // Behind a pooler: no connection bound, the unprepared statements' cost as measured.
          unpreparedPlan: plan(
            {
              serviceMs: withPooler.serviceMs,
              redisUs: withPooler.redisUs,
              postgresUs: withPooler.postgresUs + withPooler.autovacuumUs,
            },
            { pgCores, instancesByConnections: null },
          ),
          // The same with the script's cost when many calls wait at each read, as at saturation.
          batchedRedisPlan: plan(
            { ...predicted, redisUs: script[1].redisUs },
            { pgCores, instancesByConnections },
          ),
        },
      ];
    }),
  );
  return {
    date: new Date().toISOString(),
    commit: bench.commit(),
    machine,
    settings: {
      rows,
      rounds,
      seconds,
      warmup,
      connections: bench.settings.connections,
      logLevel: bench.settings.logLevel,
      command: bench.settings.command,
    },
    postgresSettings,
    calibration,
    pgCores,
    operations: perOperation,
    mixes,
    scaleOut: { one: medians(one), two: medians(two) },
    statements,
    script,
  };
}
