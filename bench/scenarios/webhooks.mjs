// Webhooks on an instance, a database and a receiver of their own (bench/webhook-receiver.mjs, on
// loopback, allowed by WEBHOOK_ALLOWED_NETWORKS; every other setting the service's default), in
// interleaved rounds (medians), then a backlog. Orders come from customers' keys; the endpoints
// belong to a key that sees every order, subscribed to every event ('*'), so that an order makes
// two events, six deliveries.
// 1. placeOrder with three endpoints against placeOrder with none, as many as the service takes:
//    the service's CPU per request, the request path's, while the receiver holds the attempts
//    under way (the worker, every endpoint at its cap, claims nothing more, so the deliveries wait
//    and the figure is what the fan-out in the transaction costs); PostgreSQL's backends' CPU per
//    request beside it, for the trigger runs there;
// 2. placeOrder at a fixed rate the worker keeps up with, with the three endpoints delivering and
//    with none: the time from each change's commit to the receipt of each of its deliveries, and
//    the service's CPU per delivery (the worker runs in the same process; each round is counted
//    until the receiver has every delivery its orders made);
// 3. a backlog of --webhook-backlog deliveries drained while a fixed read load runs: the rate it
//    drains at, and the read load's p99 in windows of draining against its p99 in the windows
//    between them, where the worker pauses (and before the backlog).
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  closeOpenOrders,
  insertKey,
  log,
  newKey,
  seedOrderablePets,
  seedPets,
} from '../environment.mjs';
import { askChild } from '../processes.mjs';
import { median, summarize } from '../report.mjs';
import { PostgresCpu } from './capacity.mjs';

const require = createRequire(import.meta.url);

/** Endpoints subscribed while they are measured, each to every event. */
export const ENDPOINTS = 3;
/** A placed order records two events: order.placed, and pet.updated for the pet it holds. */
const EVENTS_PER_ORDER = 2;
/** Connections of every load here, and customers placing orders: one key each. */
const CONNECTIONS = 10;
/**
 * placeOrder's fixed rate while the endpoints receive: 20 orders a second are 120 deliveries a
 * second, well within what the worker delivers, so that no backlog forms (part 2).
 */
const PLACE_RATE = 20;
/** The read load that runs before and during the drain of the backlog, in requests a second. */
const LIST_RATE = 200;
/** The drain's windows, each of draining or of pausing, at most: under WEBHOOK_TIMEOUT_MS. */
const MAX_WINDOW_SECONDS = 10;
/** How long the receiver may take to get a round's deliveries, and the backlog's. */
const ROUND_DELIVERIES_TIMEOUT_MS = 120_000;
const DRAIN_TIMEOUT_MS = 30 * 60_000;

/** Sends the receiver a command and waits for its answer. */
const ask = (receiver, command) =>
  askChild(receiver.child, { receiver: command }, (message) => message?.receiver === command);

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
  const windowSeconds = Math.min(seconds, MAX_WINDOW_SECONDS);
  log('Webhooks: a database, a receiver and an instance of their own...');
  const db = await bench.database('_webhooks');
  const receiver = await bench.processes.script(
    'webhook-receiver',
    'webhook-receiver.mjs',
    4310,
    {},
  );
  const service = await bench.processes.service('service-webhooks', 4309, {
    ...bench.serviceEnv(db),
    // The receiver listens on loopback, over plain http: allowed as for an on-premises receiver
    // (docs/operations.md).
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    // Every round subscribes its endpoints twice: more than the default 10 creations a minute
    // (docs/adr/0047), which is not what this measures.
    WEBHOOK_ENDPOINT_CREATIONS_PER_MINUTE: '10000',
  });
  await db.client.connect();
  const pets = await seedPets(db.client, bench.settings.rows);
  // The endpoints' key sees every order (orders:manage), as a shelter's system would; the orders
  // come from customers' keys, one after another: placeOrder takes its key's lock (docs/adr/0022),
  // and the orders of one key would wait for each other, longer the longer each transaction is.
  await insertKey(db.client, bench.key, {
    scopes: ['pets:read', 'orders:manage', 'webhooks:manage'],
  });
  const customers = Array.from({ length: CONNECTIONS }, () => newKey());
  for (const [i, key] of customers.entries())
    await insertKey(db.client, key, { name: `customer ${i + 1}` });
  await bench.untilKeysKnown();
  let nextCustomer = 0;
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
  /** The deliveries the fan-out has made to these endpoints, whatever became of them. */
  const deliveriesOf = async (ids) => {
    const { rows } = await db.client.query(
      'SELECT count(*)::int AS count FROM webhook_deliveries WHERE endpoint_id = ANY ($1)',
      [ids],
    );
    return rows[0].count;
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
        // A pet of its own for every order: each is a 201 that moves a pet to pending.
        setupRequest: (request) => ({
          ...request,
          headers: {
            authorization: `Bearer ${customers[nextCustomer++ % customers.length]}`,
            'content-type': 'application/json',
          },
          body: `{"petId":${nextPet++}}`,
        }),
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

  // autocannon leaves the requests under way when a duration ends unanswered; they end in the
  // service a moment later. Until no transaction of the service is open, the next window waits:
  // an order of the last one must not fan out to the next one's endpoints.
  const quiet = async () => {
    for (let tries = 0; tries < 250; tries++) {
      const { rows } = await db.client.query(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`,
      );
      if (rows.length === 0) return;
      await sleep(20);
    }
  };
  // Every window starts from keys with no open order, so that none is dearer for coming later.
  const cancelOpenOrders = async () => {
    await quiet();
    await closeOpenOrders(db.client);
  };

  /** Part 1, with endpoints: the receiver holds every attempt, so the deliveries wait. */
  const placeHeld = async (extra = {}) => {
    await cancelOpenOrders();
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
    await cancelOpenOrders();
    await postgres.start();
    const sample = await bench.run(service, placeOrder, { ...asManyAsTaken, ...extra });
    const postgresNs = await postgres.stop();
    return { ...sample, postgresUsPerRequest: postgresNs.backends / 1e3 / sample.requests };
  };

  /** Part 2, without endpoints. */
  const placeNoneAtRate = async (secondsOf = seconds) => {
    await cancelOpenOrders();
    return bench.run(service, placeOrder, atPlaceRate(secondsOf));
  };
  /**
   * Part 2, with endpoints: counted until the receiver has every delivery of the orders placed.
   * The receipts' delays from their commits.
   */
  const placeDelivered = async (secondsOf = seconds) => {
    await cancelOpenOrders();
    const endpoints = await subscribe();
    await ask(receiver, 'reset');
    committed.clear();
    let counts;
    const sample = await bench.run(service, placeOrder, {
      ...atPlaceRate(secondsOf),
      // Every answer has come: every order's deliveries are in the table, to be received.
      settle: async () => {
        counts = await deliveriesReceived(
          receiver,
          await deliveriesOf(endpoints),
          ROUND_DELIVERIES_TIMEOUT_MS,
        );
      },
    });
    const { receipts } = await ask(receiver, 'receipts');
    const fannedOut = await deliveriesOf(endpoints);
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
  await placeNoneAtRate(warmup);
  await placeDelivered(warmup);

  const none = [];
  const held = [];
  const noneAtRate = [];
  const delivered = [];
  const delays = [];
  for (let round = 1; round <= rounds; round++) {
    log(`Webhooks: placeOrder with no endpoint and with ${ENDPOINTS}, round ${round}/${rounds}...`);
    // Each pair in turns, one first in one round and the other in the next.
    const first = round % 2 === 1;
    if (first) none.push(await placeNone());
    held.push(await placeHeld());
    if (!first) none.push(await placeNone());
    if (first) noneAtRate.push(await placeNoneAtRate());
    const measured = await placeDelivered();
    if (!first) noneAtRate.push(await placeNoneAtRate());
    delivered.push(measured);
    delays.push(...measured.delays);
  }
  delays.sort((a, b) => a - b);

  // Part 3: the backlog. Its events are inserted in bulk with the columns the service's event
  // recorder writes for a pet.updated (src/platform/event-log/sql-event-recorder.ts) and the
  // service's own payload SQL for a pet; the worker then turns them into deliveries, one per
  // subscribed endpoint (docs/adr/0048, bounded and paced by 0056), and delivers them, as it would
  // after any burst of changes. What it leaves out is the tens of thousands of requests that would
  // record them one by one, which take longer than the drain and change nothing the worker then
  // does; the request path is what the rounds above measure.
  const events = Math.ceil(webhookBacklog / ENDPOINTS);
  const { petPayloadJson } = require('../../dist/src/pets/infrastructure/pet-payload.sql.js');
  const endpoints = await subscribe();
  await ask(receiver, 'reset');
  const list = { path: '/v1/pets?limit=20', headers: bench.auth };
  const reading = { rate: LIST_RATE, connections: CONNECTIONS };
  log(`Webhooks: the read load before a backlog (${LIST_RATE} req/s)...`);
  await bench.run(service, list, { ...reading, seconds: warmup });
  // Each read's time: before the backlog, and during the drain by the window it was sent in.
  const readMs = { before: [], draining: [], paused: [] };
  await postgres.start();
  const before = await bench.run(service, list, {
    ...reading,
    seconds: rounds * seconds,
    onResponse: (status, ms) => {
      if (status >= 200 && status < 300) readMs.before.push(ms);
    },
  });
  const postgresBeforeNs = (await postgres.stop()).backends;

  log(`Webhooks: a backlog of ${(events * ENDPOINTS).toLocaleString('en')} deliveries...`);
  // The drain's first window is one of pausing: however small the backlog, there is one.
  await ask(receiver, 'hold');
  const insertStarted = Date.now();
  await db.client.query(
    `INSERT INTO events (type, readers, read_scope, organization_id, data)
     SELECT 'pet.updated', 'everyone', 'pets:read', p.organization_id, ${petPayloadJson('p')}
       FROM generate_series(1, $1::int) i JOIN pets p ON p.id = 1 + (i - 1) % $2::int
      ORDER BY i`,
    [events, pets],
  );
  const backlogCommitted = Date.now();
  // Every endpoint is subscribed to every event its key may read, and the key reads pets: the
  // deliveries the worker is to make. Counted from the table, they were none at this moment
  // since 0048, and the drain waited for none.
  const backlog = events * ENDPOINTS;
  // The read load runs on until the backlog has drained, in windows that take turns: in one the
  // receiver holds its answers, so that the worker, every endpoint at its cap, delivers nothing,
  // and in the next the worker drains. The read load's p99 in the windows of draining against
  // its p99 in the windows between them is the drain's effect on it, measured on the machine as it
  // is at that time: before and after the drain another tenant may be busier or idler.
  log('Webhooks: draining it under the same read load, paused every other window...');
  const drained = deliveriesReceived(receiver, backlog, DRAIN_TIMEOUT_MS);
  let done = false;
  drained.then(() => (done = true));
  const windows = [{ draining: false, start: backlogCommitted }];
  const alternating = (async () => {
    while (!done) {
      await Promise.race([sleep(windowSeconds * 1000), drained]);
      if (done) break;
      const draining = !windows.at(-1).draining;
      await ask(receiver, draining ? 'release' : 'hold');
      windows.push({ draining, start: Date.now() });
    }
    if (!windows.at(-1).draining) await ask(receiver, 'release');
  })();
  const windowAt = (at) => windows.findLast((w) => w.start <= at) ?? windows[0];
  await postgres.start();
  const during = await bench.run(service, list, {
    ...reading,
    until: drained,
    onResponse: (status, ms) => {
      if (status < 200 || status >= 300) return;
      const window = windowAt(Date.now() - ms);
      readMs[window.draining ? 'draining' : 'paused'].push(ms);
      (window.readMs ??= []).push(ms);
    },
  });
  const postgresDuringNs = (await postgres.stop()).backends;
  const drain = await drained;
  await alternating;
  // The deliveries the worker made of the backlog's events, whatever became of them.
  const fannedOut = await deliveriesOf(endpoints);
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
  // The time spent draining: the draining windows, the last up to the last delivery.
  const drainSeconds =
    windows.reduce((total, w, i) => {
      if (!w.draining) return total;
      const end = Math.min(windows[i + 1]?.start ?? Infinity, drain.last ?? w.start);
      return total + Math.max(0, end - w.start);
    }, 0) / 1000;
  const readP99 = (name) => {
    const sorted = readMs[name].sort((a, b) => a - b);
    return sorted.length ? fixed(percentile(sorted, 99), 1) : null;
  };
  // None when a backlog too small to outlast its first window left no window of draining.
  const p99Ratio = (against) =>
    readP99('draining') && readP99(against)
      ? fixed(readP99('draining') / readP99(against), 2)
      : null;
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
      roundsP95: delivered.map((r) =>
        percentile(
          r.delays.sort((a, b) => a - b),
          95,
        ),
      ),
    },
    backlog: {
      deliveries: backlog,
      fannedOut,
      insertSeconds: fixed((backlogCommitted - insertStarted) / 1000, 1),
      delivered: drain.distinct,
      duplicates: drain.received - drain.distinct,
      drainSeconds: fixed(drainSeconds, 1),
      elapsedSeconds: fixed(((drain.last ?? backlogCommitted) - backlogCommitted) / 1000, 1),
      windowSeconds,
      windows: windows.length,
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
      // The bench's own count: each read's time from when it was due (the open loop of
      // paced-load.mjs), put in the window it was answered in.
      beforeRaw: { requests: readMs.before.length, p99: readP99('before') },
      draining: { requests: readMs.draining.length, p99: readP99('draining') },
      paused: { requests: readMs.paused.length, p99: readP99('paused') },
      p99Ratio: p99Ratio('paused'),
      p99RatioToBefore: p99Ratio('before'),
      // Each window's p99 in turn, paused first.
      windowsP99: windows.map(({ readMs: ms = [] }) =>
        fixed(
          percentile(
            ms.sort((a, b) => a - b),
            99,
          ),
          1,
        ),
      ),
    },
  };
}
