// createPet while another key has 10,000 endpoints subscribed to pet.created, against createPet
// with none, on an instance and a database of their own: p99 at a fixed rate, and the service's
// CPU per request, in interleaved rounds (medians); and against createPet before any endpoint
// exists, on a quiet machine, since both interleaved cases run beside the background work the
// rounds before them left. Since v1.3 the write records its event only and the deliveries are
// made afterwards (docs/adr/0048); before, a trigger inserted them in the writer's transaction
// (about 25 µs per endpoint per event). The fan-out and the worker run as configured, except the
// worker's attempts: one at a time (WEBHOOK_CONCURRENCY=1), to a closed loopback port, tried
// again an hour later (the webhooks scenario measures attempts). Each delivery made is still
// attempted once, at once. The fan-out's background work of 10,000 deliveries per write shares
// this machine's two cores with the load and the database (on a real deployment the database has
// its own).
import { insertKey, log, newKey } from '../environment.mjs';
import { summarize } from '../report.mjs';

export const FAN_OUT_ENDPOINTS = 10_000;
/** createPet's fixed rate: a steady writer, well within what the service takes. */
const RATE = 20;

export async function measureFanOut(bench) {
  const { rounds, warmup, smoke } = bench.settings;
  const endpoints = smoke ? 1_000 : FAN_OUT_ENDPOINTS;
  log(`Fan-out: createPet with ${endpoints.toLocaleString('en')} endpoints of another key...`);
  const db = await bench.database('_fan_out');
  const service = await bench.processes.service('service-fan-out', 4317, {
    ...bench.serviceEnv(db),
    // A closed port on loopback: every attempt fails at once, and is not tried again for an hour.
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    WEBHOOK_RETRY_SCHEDULE: '3600',
    WEBHOOK_CONCURRENCY: '1',
    WEBHOOK_ENDPOINT_CONCURRENCY: '1',
  });
  await db.client.connect();
  await db.client.query(
    'INSERT INTO categories (id) SELECT generate_series(1, 50) ON CONFLICT DO NOTHING',
  );
  await insertKey(db.client, bench.key);
  const listener = newKey();
  await insertKey(db.client, listener, {
    name: 'listener',
    scopes: ['pets:read', 'webhooks:manage'],
  });
  await bench.untilKeysKnown();
  const {
    rows: [{ id: listenerId }],
  } = await db.client.query(`SELECT id FROM api_keys WHERE name = 'listener'`);
  const subscribe = (events) =>
    db.client.query(`UPDATE webhook_endpoints SET events = $1`, [events]);
  const op = {
    method: 'POST',
    path: '/v1/pets',
    headers: { ...bench.auth, 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":7}',
  };
  // First on a quiet machine, before any endpoint exists: the interleaved cases below both run
  // beside the background work of the rounds before them (the fan-out, the worker's attempts).
  log('Fan-out: createPet before any endpoint exists...');
  await bench.run(service, op, { seconds: warmup, rate: RATE });
  const quietRuns = [];
  for (let round = 1; round <= rounds; round++) {
    quietRuns.push(await bench.run(service, op, { rate: RATE }));
  }
  await db.client.query(
    `INSERT INTO webhook_endpoints (owner_key_id, url, events, secret)
     SELECT $1, 'http://127.0.0.1:9/' || n, '{pet.deleted}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
       FROM generate_series(1, $2::int) AS n`,
    [listenerId, endpoints],
  );
  await db.client.query('VACUUM ANALYZE webhook_endpoints');
  const cases = {
    // The same endpoints, subscribed elsewhere (pet.deleted): none takes the writes' events.
    'POST /v1/pets, no endpoint subscribed': ['pet.deleted'],
    [`POST /v1/pets, ${endpoints.toLocaleString('en')} endpoints subscribed`]: ['pet.created'],
  };
  log('Fan-out: warm-up...');
  await bench.run(service, op, { seconds: warmup, rate: RATE });
  const runs = {};
  for (let round = 1; round <= rounds; round++) {
    log(`Fan-out: round ${round}/${rounds}...`);
    for (const [name, events] of Object.entries(cases)) {
      await subscribe(events);
      (runs[name] ??= []).push(await bench.run(service, op, { rate: RATE }));
    }
  }
  await subscribe(['pet.deleted']);
  const deliveries = Number(
    (await db.client.query('SELECT count(*) AS n FROM webhook_deliveries')).rows[0].n,
  );
  await bench.processes.stop(service);
  const summaries = Object.fromEntries(Object.entries(runs).map(([n, r]) => [n, summarize(r)]));
  const [none, subscribed] = Object.values(summaries);
  const quiet = summarize(quietRuns);
  return {
    endpoints,
    rate: RATE,
    deliveriesMade: deliveries,
    quiet,
    operations: summaries,
    p99Ratio: Number((subscribed.p99 / none.p99).toFixed(2)),
    p99RatioToQuiet: Number((subscribed.p99 / quiet.p99).toFixed(2)),
    cpuRatio: Number((subscribed.cpuMsPerRequest / none.cpuMsPerRequest).toFixed(2)),
  };
}
