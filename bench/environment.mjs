// What a benchmark run stands on: databases of its own, seeded; a key; the servers under test.
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync, execSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import pg from 'pg';
import { measure, Processes } from './processes.mjs';
import { nodeBinary } from '../scripts/node-binary.mjs';

export const log = (message) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Adds `count` pets to a database, statuses in turn, in 50 categories; returns the greatest id. */
export async function seedPets(client, count) {
  // Every pet's category exists (a foreign key): the service creates it with the first pet.
  await client.query(
    'INSERT INTO categories (id) SELECT generate_series(1, 50) ON CONFLICT DO NOTHING',
  );
  await client.query(
    `INSERT INTO pets (name, category_id, status)
     SELECT 'pet ' || i, 1 + i % 50, (ARRAY['available', 'pending', 'sold'])[1 + i % 3]
       FROM generate_series(1, $1::int) i`,
    [count],
  );
  await client.query('VACUUM ANALYZE pets');
  return Number((await client.query('SELECT max(id) AS id FROM pets')).rows[0].id);
}

/** Orders of the bench's key, to page through: cancelled, so that they hold no pet; the key's id. */
export async function seedOrders(client, count) {
  const [{ id }] = (await client.query(`SELECT id FROM api_keys WHERE name = 'bench'`)).rows;
  await client.query(
    `INSERT INTO orders (pet_id, owner_key_id, status, cancel_reason)
     SELECT 1 + i % 1000, $1, 'cancelled', 'requested' FROM generate_series(1, $2::int) i`,
    [id, count],
  );
  await client.query('VACUUM ANALYZE orders');
  return id;
}

/**
 * An order placed by the bench's key for every available pet (which becomes pending), for a run
 * that approves them one by one; the first order's id and how many there are.
 */
export async function seedPlacedOrders(client) {
  const [{ id }] = (await client.query(`SELECT id FROM api_keys WHERE name = 'bench'`)).rows;
  const { rows } = await client.query(
    `WITH "pet" AS (
       UPDATE pets SET status = 'pending' WHERE status = 'available' AND deleted_at IS NULL
       RETURNING id, organization_id
     )
     INSERT INTO orders (pet_id, owner_key_id, organization_id, status, expires_at)
     SELECT id, $1, organization_id, 'placed', now() + interval '3 days' FROM "pet" ORDER BY id
     RETURNING id`,
    [id],
  );
  await client.query('VACUUM ANALYZE orders');
  return { first: Number(rows[0].id), count: rows.length };
}

/**
 * Cancels the open orders of a key (or of every key), as lapsed holds would be, between two
 * measurements. A placement counts its key's open orders (the cap, ADR 0022), and the bench's keys,
 * whose caps no run reaches, would otherwise keep every order they placed open, so that each run's
 * placements cost more than the last's (half the rate after 10,000 orders) where a real key holds at
 * most its cap. Their pets stay pending: no run orders a pet twice.
 */
export async function closeOpenOrders(client, keyId = null) {
  await client.query(
    `UPDATE orders SET status = 'cancelled', cancel_reason = 'expired', expires_at = NULL
      WHERE status IN ('placed', 'approved') AND ($1::bigint IS NULL OR owner_key_id = $1)`,
    [keyId],
  );
}

/** Available pets to order, one per request, beyond the seeded ones; the first id. */
export async function seedOrderablePets(client, count) {
  await client.query('INSERT INTO categories (id) VALUES (1) ON CONFLICT DO NOTHING');
  const { rows } = await client.query(
    `INSERT INTO pets (name, category_id, status)
     SELECT 'to adopt ' || i, 1, 'available' FROM generate_series(1, $1::int) i
     RETURNING id`,
    [count],
  );
  await client.query('VACUUM ANALYZE pets');
  return Number(rows[0].id);
}

/**
 * One enterprise key, hashed as the service stores keys: by default with limits (open orders too)
 * no run can reach and the default scopes; the parity check's refusals use a key of one scope and
 * a key of one request a minute.
 */
export async function insertKey(
  client,
  key,
  { name = 'bench', perMinute = 1_000_000_000, scopes = null, organizationId = 1 } = {},
) {
  // By default a key of the house's staff: the default scopes and pets:manage, so that it
  // corrects the pets it measures (docs/adr/0040).
  await client.query(
    `INSERT INTO api_keys (name, plan, per_minute, per_day, open_orders, prefix, hash, scopes,
                           organization_id)
     VALUES ($1, 'enterprise', $2, 1000000000, 1000000000, $3, $4,
             COALESCE($5::text[],
                      ARRAY['pets:read', 'pets:write', 'pets:manage', 'orders:read', 'orders:write']),
             $6)`,
    [
      name,
      perMinute,
      key.slice(0, 13),
      createHash('sha256').update(key).digest('hex'),
      scopes,
      organizationId,
    ],
  );
}

/** A new random key of the service's live prefix. */
export const newKey = () => `pet_live_${randomBytes(32).toString('base64url')}`;

/**
 * The run's environment: a database on the PostgreSQL of DATABASE_URL and a key prefix on the
 * Redis of REDIS_URL (the machine's on loopback by default), both dropped at the end; the service
 * and the other servers as child processes; and the load generator with the run's settings.
 */
export class BenchEnvironment {
  constructor(root, settings) {
    this.root = root;
    this.settings = settings;
    this.serverUrl = new URL(
      process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    );
    this.redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const stamp = Date.now();
    this.databases = [];
    this.redisPrefix = `pet-bench:${stamp}:`;
    this.stamp = stamp;
    this.key = newKey();
    this.auth = { authorization: `Bearer ${this.key}` };
    /** Keys for the parity check's refusals: one that may only read, one of 1 request a minute. */
    this.readOnlyKey = newKey();
    this.limitedKey = newKey();
    this.node = nodeBinary(settings.node);
    this.nodeVersion = execFileSync(this.node, ['--version']).toString().trim();
    /** The Node's major version, and what the run's result files add to their names for it. */
    this.nodeMajor = Number(/^v(\d+)/.exec(this.nodeVersion)[1]);
    this.resultSuffix = this.node === process.execPath ? '' : `-node${this.nodeMajor}`;
    this.processes = new Processes(root, { profileDir: settings.profileDir, node: this.node });
    this.admin = new pg.Client({ connectionString: this.serverUrl.toString() });
    this.env = {
      NODE_ENV: 'production',
      REDIS_URL: this.redisUrl,
      REDIS_KEY_PREFIX: this.redisPrefix,
      PUBLIC_BASE_URL: 'http://127.0.0.1:4301/v1',
      LOG_LEVEL: settings.logLevel,
    };
  }

  async open() {
    await this.admin.connect();
    return this;
  }

  /** A new, empty database of the run; its URL and a client connected to it. */
  async database(suffix = '') {
    const name = `pet_bench_${this.stamp}${suffix}`;
    await this.admin.query(`CREATE DATABASE ${name}`);
    const url = Object.assign(new URL(this.serverUrl), { pathname: `/${name}` }).toString();
    const client = new pg.Client({ connectionString: url });
    this.databases.push({ name, client });
    return { name, url, client };
  }

  /**
   * The environment of a service instance on `db`, with a Redis key prefix of that database's own.
   * Key ids start at 1 in every database: instances of two databases on one prefix would share
   * each key's counters and bans, and the budget of the address their keys pay from until an
   * instance has verified them, so one scenario's refusals could ban another's key.
   */
  serviceEnv(db) {
    return {
      ...this.env,
      DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: `${this.redisPrefix}${db.name}:`,
    };
  }

  /**
   * Waits until the instances know the keys inserted into their databases after they started: an
   * instance loads keys issued elsewhere every 2 s (docs/adr/0023), and until then a key's first
   * requests are guesses that pay from their address, loopback, whose limit a load at 50
   * connections spends at once, and whose ban would then refuse the key too.
   */
  async untilKeysKnown() {
    await sleep(2_500);
  }

  /** Measures one operation against one server with the run's settings (`extra` overrides). */
  run(target, op, extra = {}) {
    const { seconds, connections } = this.settings;
    return measure(target, { ...op, seconds, connections, ...extra });
  }

  async machine(client) {
    const version = async (sql) => (await client.query(sql)).rows[0].v;
    const redis = new Redis(this.redisUrl);
    try {
      return {
        cpus: cpus().length,
        model: cpus()[0].model.trim(),
        memoryGb: Math.round(totalmem() / 2 ** 30),
        node: this.nodeVersion,
        postgres: await version("SELECT split_part(version(), ' on ', 1) AS v"),
        redis: /redis_version:(\S+)/.exec(await redis.info('server'))[1],
      };
    } finally {
      redis.disconnect();
    }
  }

  commit() {
    return execSync('git rev-parse --short HEAD', { cwd: this.root }).toString().trim();
  }

  /** Stops the servers, drops the databases and the run's Redis keys. */
  async close() {
    await this.processes.stopAll();
    for (const { name, client } of this.databases) {
      await client.end().catch(() => undefined);
      await this.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    }
    await this.admin.end();
    // The bench's counters expire with their windows; they need not wait for that.
    const redis = new Redis(this.redisUrl);
    const stale = await redis.keys(`${this.redisPrefix}*`);
    if (stale.length > 0) await redis.del(...stale);
    redis.disconnect();
  }
}
