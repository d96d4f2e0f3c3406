// Adoptions against the operations they are judged by, on an instance and a database of their own
// (pets enough to be ordered, orders enough to page): placeOrder against createPet (CPU per
// request), listOrders against listPets (throughput), getInventory against a list page at
// --large-rows pets (cost), and createPet with the inventory's counters kept against without them.
// Interleaved rounds; medians.
import {
  closeOpenOrders,
  insertKey,
  log,
  seedOrderablePets,
  seedOrders,
  seedPets,
} from '../environment.mjs';
import { pairedRatio, summarize } from '../report.mjs';

const COUNTERS = ['pets_counted_on_insert', 'pets_counted_on_update', 'pets_counted_on_delete'];
/** One statement for the three: a pg client runs one query at a time. */
const counters = (client, on) =>
  client.query(
    `ALTER TABLE pets ${COUNTERS.map((name) => `${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${name}`).join(', ')}`,
  );

export async function measureStore(bench) {
  const { largeRows, rounds, warmup, seconds, smoke } = bench.settings;
  const pets = smoke ? bench.settings.rows : largeRows;
  log(`Store: a database with ${pets.toLocaleString('en')} pets and orders to page...`);
  const db = await bench.database('_store');
  const service = await bench.processes.service('service-store', 4307, bench.serviceEnv(db));
  await db.client.connect();
  await seedPets(db.client, pets);
  await insertKey(db.client, bench.key);
  await bench.untilKeysKnown();
  const keyId = await seedOrders(db.client, 10_000);
  const [{ seeded }] = (await db.client.query('SELECT max(id) AS seeded FROM orders')).rows;
  // More than any run can order: about 5,000 req/s over every round and warm-up.
  const orderable = (rounds + 2) * (seconds + warmup) * 5_000;
  let nextPet = await seedOrderablePets(db.client, orderable);

  const json = { ...bench.auth, 'content-type': 'application/json' };
  const operations = {
    'POST /v1/pets': {
      method: 'POST',
      path: '/v1/pets',
      headers: json,
      body: '{"name":"Rex","categoryId":7}',
    },
    'POST /v1/store/orders': {
      requests: [
        {
          method: 'POST',
          path: '/v1/store/orders',
          headers: json,
          // A pet of its own for every order: each is a 201 that moves a pet to pending.
          setupRequest: (request) => ({ ...request, body: `{"petId":${nextPet++}}` }),
        },
      ],
    },
    'GET /v1/pets?limit=20': { path: '/v1/pets?limit=20', headers: bench.auth },
    'GET /v1/store/orders?limit=20': { path: '/v1/store/orders?limit=20', headers: bench.auth },
    'GET /v1/store/inventory': { path: '/v1/store/inventory', headers: bench.auth },
  };
  log('Store: warm-up...');
  for (const op of Object.values(operations)) {
    await closeOpenOrders(db.client, keyId);
    await bench.run(service, op, { seconds: warmup });
  }

  const runs = {};
  const withoutCounters = [];
  for (let round = 1; round <= rounds; round++) {
    log(`Store: round ${round}/${rounds}...`);
    for (const [name, op] of Object.entries(operations)) {
      await closeOpenOrders(db.client, keyId);
      (runs[name] ??= []).push(await bench.run(service, op));
    }
    // The same creates with the counters' triggers off: what keeping the inventory costs.
    await counters(db.client, false);
    withoutCounters.push(await bench.run(service, operations['POST /v1/pets']));
    await counters(db.client, true);
  }
  const [{ count }] = (
    await db.client.query('SELECT count(*)::int FROM orders WHERE id > $1', [seeded])
  ).rows;
  const inventory = await (
    await fetch(`${service.url}/v1/store/inventory`, { headers: bench.auth })
  ).json();
  await bench.processes.stop(service);

  const summaries = Object.fromEntries(Object.entries(runs).map(([n, r]) => [n, summarize(r)]));
  const cpu = (name) => summaries[name].cpuMsPerRequest;
  return {
    pets,
    ordersPlaced: count,
    inventory,
    operations: summaries,
    placeOrderCpuRatio: Number((cpu('POST /v1/store/orders') / cpu('POST /v1/pets')).toFixed(2)),
    listOrdersRatio: pairedRatio(
      runs['GET /v1/store/orders?limit=20'],
      runs['GET /v1/pets?limit=20'],
    ).ratio,
    // Cost is the inverse of throughput: the list page's req/s over the inventory's.
    inventoryCostRatio: pairedRatio(runs['GET /v1/pets?limit=20'], runs['GET /v1/store/inventory'])
      .ratio,
    countersRatio: pairedRatio(runs['POST /v1/pets'], withoutCounters).ratio,
    withoutCounters: summarize(withoutCounters),
  };
}
