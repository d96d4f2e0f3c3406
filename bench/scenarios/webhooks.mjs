// Webhooks on an instance, a database and a receiver of their own (bench/webhook-receiver.mjs, on
// loopback, allowed by WEBHOOK_ALLOWED_NETWORKS; every other setting the service's default), in
// interleaved rounds (medians), then a backlog:
// 1. placeOrder with three endpoints subscribed to every event ('*') against placeOrder with none,
//    as many as the service takes: the service's CPU per request, the request path's, while the
//    receiver holds the attempts under way (the worker, every endpoint at its cap, claims nothing
//    more, so the deliveries wait and the figure is what the fan-out in the transaction costs);
//    PostgreSQL's backends' CPU per request beside it, for the trigger runs there;
// 2. placeOrder at a fixed rate the worker keeps up with, with the three endpoints delivering and
//    with none: the time from each change's commit to the receipt of each of its deliveries, and
//    the service's CPU per delivery (the worker runs in the same process; each round is counted
//    until the receiver has every delivery its orders made);
// 3. a backlog of --webhook-backlog deliveries drained while a fixed read load runs: the rate it
//    drains at, and the read load's p99 during the drain against the same load's p99 before it.
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { insertKey, log, seedOrderablePets, seedPets } from '../environment.mjs';
import { median, summarize } from '../report.mjs';
import { PostgresCpu } from './capacity.mjs';

const require = createRequire(import.meta.url);

/** Endpoints subscribed while they are measured, each to every event. */
export const ENDPOINTS = 3;
/** A placed order records two events: order.placed, and pet.updated for the pet it holds. */
const EVENTS_PER_ORDER = 2;
/** Connections of every load here: few, so that the key's lock on placeOrder is seldom waited on. */
const CONNECTIONS = 10;
/**
 * placeOrder's fixed rate while the endpoints receive: 20 orders a second are 120 deliveries a
 * second, well within what the worker delivers, so that no backlog forms (part 2).
 */
const PLACE_RATE = 20;
/** The read load that runs before and during the drain of the backlog, in requests a second. */
const LIST_RATE = 200;
/** How long the receiver may take to get a round's deliveries, and the backlog's. */
const ROUND_DELIVERIES_TIMEOUT_MS = 120_000;
const DRAIN_TIMEOUT_MS = 30 * 60_000;

/** Sends the receiver a command and waits for its answer. */
function ask(receiver, command) {
  return new Promise((resolve) => {
    const answer = (message) => {
      if (message?.receiver !== command) return;
      receiver.child.off('message', answer);
      resolve(message);
    };
    receiver.child.on('message', answer);
    receiver.child.send({ receiver: command });
  });
}

/** Waits until the receiver has `count` distinct deliveries, or the time is up; its counts. */
async function deliveriesReceived(receiver, count, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { counts } = await ask(receiver, 'counts');
    if (counts.distinct >= count || Date.now() > until) return counts;
    await sleep(100);
  }
}

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;

const fixed = (value, digits) => Number(value.toFixed(digits));

export async function measureWebhooks(bench) {
  const { rounds, warmup, seconds, webhookBacklog } = bench.settings;
  log('Webhooks: a database, a receiver and an instance of their own...');
  const db = await bench.database('_webhooks');
  const receiver = await bench.processes.script(
    'webhook-receiver',
    'webhook-receiver.mjs',
    4310,
    {},
  );
  const service = await bench.processes.service('service-webhooks', 4309, {
    ...bench.env,
    DATABASE_URL: db.url,
    // The receiver listens on loopback, over plain http: allowed as for an on-premises receiver
    // (docs/operations.md).
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  });
  await db.client.connect();
  const pets = await seedPets(db.client, bench.settings.rows);
  await insertKey(db.client, bench.key, {
    scopes: ['pets:read', 'pets:write', 'orders:read', 'orders:write', 'webhooks:manage'],
  });
  // An available pet for every order: at most about 2,000 a second at CONNECTIONS, in the
  // warm-up and the rounds as many as the service takes, and the fixed-rate ones.
  const orderable =
    2 * 2_000 * (warmup + rounds * seconds) + 2 * PLACE_RATE * (warmup + rounds * seconds);
  let nextPet = await seedOrderablePets(db.client, orderable);
  const postgres = new PostgresCpu(db.client, db.name);

  const json = { ...bench.auth, 'content-type': 'application/json' };
  const api = async (method, path, body, expected) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: json,
      body: body && JSON.stringify(body),
    });
    if (response.status !== expected)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  };
  const subscribe = async () => {
    const ids = [];
    for (let n = 1; n <= ENDPOINTS; n++) {
      const url = `${receiver.url}/endpoint-${n}`;
      ids.push((await api('POST', '/v1/webhook-endpoints', { url, events: ['*'] }, 201)).id);
    }
    return ids;
  };
  // Their deliveries go with them, pending ones too.
  const unsubscribe = async (ids) => {
    for (const id of ids) await api('DELETE', `/v1/webhook-endpoints/${id}`, undefined, 204);
  };

  // The commit time of each change: the bench's clock when the 201 of its request arrived. The
  // commit is before that and the answer's way back is all that lies between, so commit-to-receipt
  // is measured from a moment after the commit: short by that way back (loopback, at a light
  // load), never long. Keyed as the receiver sees the events: by type and object id.
  const committed = new Map();
  const placeOrder = {
    requests: [
      {
        method: 'POST',
        path: '/v1/store/orders',
        headers: json,
        // A pet of its own for every order: each is a 201 that moves a pet to pending.
        setupRequest: (request) => ({ ...request, body: `{"petId":${nextPet++}}` }),
        onResponse: (status, body) => {
          if (status !== 201) return;
          const at = Date.now();
          const order = JSON.parse(body);
          committed.set(`order.placed ${order.id}`, at);
          committed.set(`pet.updated ${order.petId}`, at);
        },
      },
    ],
  };
  const asManyAsTaken = { connections: CONNECTIONS };
  // A number of requests rather than a duration, so that every request's answer, and with it its
  // commit time, arrives before the load ends.
  const atPlaceRate = (secondsOf) => ({
    rate: PLACE_RATE,
    amount: PLACE_RATE * secondsOf,
    connections: CONNECTIONS,
  });

  /** Part 1, with endpoints: the receiver holds every attempt, so the deliveries wait. */
  const placeHeld = async (extra = {}) => {
    const endpoints = await subscribe();
    await ask(receiver, 'hold');
    await postgres.start();
    const sample = await bench.run(service, placeOrder, { ...asManyAsTaken, ...extra });
    const postgresNs = await postgres.stop();
    await unsubscribe(endpoints);
    await ask(receiver, 'release');
    return { ...sample, postgresUsPerRequest: postgresNs.backends / 1e3 / sample.requests };
  };
  const placeNone = async (extra = {}) => {
    await postgres.start();
    const sample = await bench.run(service, placeOrder, { ...asManyAsTaken, ...extra });
    const postgresNs = await postgres.stop();
    return { ...sample, postgresUsPerRequest: postgresNs.backends / 1e3 / sample.requests };
  };

  /**
   * Part 2, with endpoints: counted until the receiver has every delivery of the orders placed.
   * The receipts' delays from their commits.
   */
  const placeDelivered = async (secondsOf = seconds) => {
    const endpoints = await subscribe();
    await ask(receiver, 'reset');
    committed.clear();
    let counts;
    const sample = await bench.run(service, placeOrder, {
      ...atPlaceRate(secondsOf),
      settle: async () => {
        counts = await deliveriesReceived(
          receiver,
          committed.size * ENDPOINTS,
          ROUND_DELIVERIES_TIMEOUT_MS,
        );
      },
    });
    const { receipts } = await ask(receiver, 'receipts');
    const [{ count: fannedOut }] = (
      await db.client.query(
        'SELECT count(*)::int AS count FROM webhook_deliveries WHERE endpoint_id = ANY ($1)',
        [endpoints],
      )
    ).rows;
    await unsubscribe(endpoints);
    const delays = [];
    let unmatched = 0;
    receipts.at.forEach((at, i) => {
      const commit = committed.get(`${receipts.type[i]} ${receipts.objectId[i]}`);
      if (commit === undefined) unmatched++;
      else delays.push(at - commit);
    });
    return {
      sample,
      delays,
      unmatched,
      fannedOut,
      received: counts.received,
      distinct: counts.distinct,
    };
  };

  log('Webhooks: warm-up...');
  await placeNone({ seconds: warmup });
  await placeHeld({ seconds: warmup });
  await bench.run(service, placeOrder, atPlaceRate(warmup));
  await placeDelivered(warmup);

  const none = [];
  const held = [];
  const noneAtRate = [];
  const delivered = [];
  const delays = [];
  for (let round = 1; round <= rounds; round++) {
    log(`Webhooks: placeOrder with no endpoint and with ${ENDPOINTS}, round ${round}/${rounds}...`);
    none.push(await placeNone());
    held.push(await placeHeld());
    noneAtRate.push(await bench.run(service, placeOrder, atPlaceRate(seconds)));
    const measured = await placeDelivered();
    delivered.push(measured);
    delays.push(...measured.delays);
  }
  delays.sort((a, b) => a - b);

  // Part 3: the backlog. Made by the statement the service's event recorder runs
  // (src/platform/events/sql-event-recorder.ts), in bulk: rows inserted into `events` fire the
  // same fan-out trigger as a change's do, so each event gets one pending delivery per subscribed
  // endpoint in the one transaction, as the worker would find them after any burst of changes;
  // the payload is the service's own SQL for a pet's events. What it leaves out is the tens of
  // thousands of requests that would record them one by one, which take longer than the drain and
  // change nothing the worker then does; the request path is what the rounds above measure.
  const events = Math.ceil(webhookBacklog / ENDPOINTS);
  const { petPayloadJson } = require('../../dist/src/platform/events/pet-payload.sql.js');
  const endpoints = await subscribe();
  await ask(receiver, 'reset');
  const list = { path: '/v1/pets?limit=20', headers: bench.auth };
  const reading = { rate: LIST_RATE, connections: CONNECTIONS };
  log(`Webhooks: the read load before a backlog (${LIST_RATE} req/s)...`);
  await bench.run(service, list, { ...reading, seconds: warmup });
  await postgres.start();
  const before = await bench.run(service, list, { ...reading, seconds: rounds * seconds });
  const postgresBeforeNs = (await postgres.stop()).backends;

  log(`Webhooks: a backlog of ${(events * ENDPOINTS).toLocaleString('en')} deliveries...`);
  const insertStarted = Date.now();
  await db.client.query(
    `INSERT INTO events (type, readers, data)
     SELECT 'pet.updated', 'pets', ${petPayloadJson('p')}
       FROM generate_series(1, $1::int) i JOIN pets p ON p.id = 1 + (i - 1) % $2::int
      ORDER BY i`,
    [events, pets],
  );
  const backlogCommitted = Date.now();
  const [{ count: backlog }] = (
    await db.client.query(
      'SELECT count(*)::int AS count FROM webhook_deliveries WHERE endpoint_id = ANY ($1)',
      [endpoints],
    )
  ).rows;
  log('Webhooks: draining it under the same read load...');
  const drained = deliveriesReceived(receiver, backlog, DRAIN_TIMEOUT_MS);
  await postgres.start();
  const during = await bench.run(service, list, { ...reading, until: drained });
  const postgresDuringNs = (await postgres.stop()).backends;
  const drain = await drained;
  const states = Object.fromEntries(
    (
      await db.client.query(
        `SELECT state, count(*)::int AS count FROM webhook_deliveries
          WHERE endpoint_id = ANY ($1) GROUP BY state ORDER BY state`,
        [endpoints],
      )
    ).rows.map(({ state, count }) => [state, count]),
  );
  await unsubscribe(endpoints);
  await bench.processes.stop(service);
  await bench.processes.stop(receiver);

  const summaries = {
    none: summarize(none),
    held: summarize(held),
    noneAtRate: summarize(noneAtRate),
    delivered: summarize(delivered.map((r) => r.sample)),
  };
  const postgresUs = (samples) => fixed(median(samples.map((s) => s.postgresUsPerRequest)), 1);
  const cpu = (name) => summaries[name].cpuMsPerRequest;
  const drainSeconds = drain.last === null ? 0 : (drain.last - backlogCommitted) / 1000;
  // The service's and PostgreSQL's CPU during the drain beyond what the same read load cost them
  // before: the deliveries' share, per delivery (about: the two loads met the machine at
  // different times).
  const deliveriesCpuMs = (during.cpuMsPerRequest - before.cpuMsPerRequest) * during.requests;
  const deliveriesPostgresNs =
    postgresDuringNs - (postgresBeforeNs / before.requests) * during.requests;
  const sum = (field) => delivered.reduce((total, r) => total + (r[field] ?? 0), 0);
  return {
    endpoints: ENDPOINTS,
    deliveriesPerOrder: ENDPOINTS * EVENTS_PER_ORDER,
    connections: CONNECTIONS,
    placeRate: PLACE_RATE,
    listRate: LIST_RATE,
    placeOrder: summaries,
    postgresUsPerRequest: { none: postgresUs(none), held: postgresUs(held) },
    placeOrderCpuRatio: fixed(cpu('held') / cpu('none'), 2),
    // Per delivery, from the fixed-rate rounds: what the orders with endpoints cost beyond those
    // without, shared among their deliveries.
    deliveryCpuMs: fixed(
      (cpu('delivered') - cpu('noneAtRate')) / (ENDPOINTS * EVENTS_PER_ORDER),
      3,
    ),
    commitToReceipt: {
      deliveries: delays.length,
      fannedOut: sum('fannedOut'),
      distinct: sum('distinct'),
      duplicates: sum('received') - sum('distinct'),
      unmatched: sum('unmatched'),
      p50: percentile(delays, 50),
      p95: percentile(delays, 95),
      p99: percentile(delays, 99),
      max: delays.at(-1) ?? 0,
    },
    backlog: {
      deliveries: backlog,
      insertSeconds: fixed((backlogCommitted - insertStarted) / 1000, 1),
      delivered: drain.distinct,
      duplicates: drain.received - drain.distinct,
      drainSeconds: fixed(drainSeconds, 1),
      deliveriesPerSecond: drainSeconds ? Math.round(drain.distinct / drainSeconds) : 0,
      deliveryCpuMs: drain.distinct ? fixed(deliveriesCpuMs / drain.distinct, 3) : null,
      deliveryPostgresUs: drain.distinct
        ? fixed(deliveriesPostgresNs / 1e3 / drain.distinct, 1)
        : null,
      states,
    },
    reads: {
      operation: `GET ${list.path}`,
      before: summarize([before]),
      during: { ...summarize([during]), seconds: fixed(during.seconds, 1) },
      p99Ratio: fixed(during.p99 / before.p99, 2),
    },
  };
}
