import {
  DeliveryFanOut,
  FAN_OUT,
  MAX_DELIVERIES,
} from '../src/webhooks/infrastructure/delivery-fan-out';
import { WebhookWorker } from '../src/webhooks/infrastructure/webhook-worker';
import { apiClient } from './support/http';
import { PlanNode, rowsRead } from './support/query-plans';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/**
 * Fan-out out of the writer's transaction (docs/adr/0048): a write records its event and nothing
 * else, whatever endpoints other keys have; DeliveryFanOut turns settled, numbered events into
 * deliveries afterwards, once each.
 */
jest.setTimeout(120_000);

describe('webhook fan-out after the write', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let listenerId: string;

  beforeAll(async () => {
    t = await startTestApp({
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      EVENT_SETTLE_INTERVAL_MS: '20',
    });
    // This instance fans out only when a test says so, below, and delivers nothing: its worker's
    // attempts and completions would take the pool's connections from the tests' own statements
    // (the last test delivers, on an instance of its own).
    await t.app.get(DeliveryFanOut).onApplicationShutdown();
    await t.app.get(WebhookWorker).onApplicationShutdown();
    listenerId = (await t.issueKey({ scopes: ['pets:read', 'webhooks:manage'] })).id;
  });
  beforeEach(async () => {
    await resetDatabase(t.dataSource);
    receiver = await new WebhookReceiver().start();
  });
  afterEach(() => receiver.stop());
  afterAll(() => t.close());

  /**
   * Endpoints of the listening key, written by SQL: more than a key's cap (docs/adr/0047), as
   * many keys with a few each would have.
   */
  const addEndpoints = (count: number, events: string[] = ['*']): Promise<{ id: string }[]> =>
    t.dataSource.query(
      `INSERT INTO webhook_endpoints (owner_key_id, url, events, secret)
       SELECT $1, $2 || '/' || n, $3, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
         FROM generate_series(1, $4) AS n
       RETURNING id::text AS id`,
      [listenerId, receiver.url, events, count],
    );
  const count = async (sql: string) => Number((await t.dataSource.query(sql))[0].n);
  const numbered = () =>
    eventually(
      async () => (await count('SELECT count(*) AS n FROM events WHERE public_id IS NULL')) === 0,
      60_000,
      'every event to be numbered',
    );

  it("inserts no delivery in the writer's transaction, and every one once the event is fanned out", async () => {
    await addEndpoints(300);
    const writer = apiClient(t.url, t.auth);
    const created = await writer.post('/v1/pets').send({ name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    // The write committed its event; no delivery exists until the fan-out runs.
    expect(await count('SELECT count(*) AS n FROM events')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM webhook_deliveries')).toBe(0);
    await numbered();
    const fanOut = t.app.get(DeliveryFanOut);
    expect(await fanOut.fanOut()).toBe(1);
    expect(await count('SELECT count(*) AS n FROM webhook_deliveries')).toBe(300);
    // Once: the progress moved past it.
    expect(await fanOut.fanOut()).toBe(0);
    expect(await count('SELECT count(*) AS n FROM webhook_deliveries')).toBe(300);
  });

  it('fans events out in their order, in batches, only to endpoints that take them', async () => {
    await addEndpoints(2, ['pet.deleted']);
    await addEndpoints(1, ['pet.created']);
    const writer = apiClient(t.url, t.auth);
    for (let i = 0; i < 150; i++) {
      await writer
        .post('/v1/pets')
        .send({ name: `Rex ${i}`, categoryId: 1 })
        .expect(201);
    }
    await numbered();
    const fanOut = t.app.get(DeliveryFanOut);
    let events = 0;
    for (let taken = await fanOut.fanOut(); taken > 0; taken = await fanOut.fanOut()) {
      expect(taken).toBeLessThanOrEqual(100);
      events += taken;
    }
    expect(events).toBe(150);
    const deliveries: { endpoint: string; pet: number }[] = await t.dataSource.query(
      `SELECT d.endpoint_id AS endpoint, (e.data->>'id')::int AS pet
         FROM webhook_deliveries d JOIN events e ON e.id = d.event_id ORDER BY d.id`,
    );
    expect(deliveries).toHaveLength(150);
    expect(new Set(deliveries.map(({ endpoint }) => endpoint)).size).toBe(1);
    const pets = deliveries.map(({ pet }) => pet);
    expect(pets).toEqual([...pets].sort((a, b) => a - b));
  });

  it('fans an event out to no endpoint created after it, however late the fan-out comes', async () => {
    const [before] = await addEndpoints(1, ['pet.created']);
    const writer = apiClient(t.url, t.auth);
    await writer.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    await numbered();
    // Created after the change committed, before the fan-out read it.
    await addEndpoints(2, ['pet.created']);
    expect(await t.app.get(DeliveryFanOut).fanOut()).toBe(1);
    const deliveries: { endpoint: string }[] = await t.dataSource.query(
      'SELECT endpoint_id::text AS endpoint FROM webhook_deliveries',
    );
    expect(deliveries).toEqual([{ endpoint: before.id }]);
  });

  it('fans an event out to more endpoints than a statement makes over several, each endpoint once', async () => {
    const endpoints = 2 * MAX_DELIVERIES + MAX_DELIVERIES / 2;
    await addEndpoints(endpoints, ['pet.created']);
    const writer = apiClient(t.url, t.auth);
    for (const name of ['Rex', 'Fido']) {
      await writer.post('/v1/pets').send({ name, categoryId: 1 }).expect(201);
    }
    await numbered();
    const fanOut = t.app.get(DeliveryFanOut);
    const made: number[] = [];
    let before = 0;
    while ((await fanOut.fanOut()) > 0) {
      const now = await count('SELECT count(*) AS n FROM webhook_deliveries');
      made.push(now - before);
      before = now;
    }
    // No statement made more than its bound; every delivery was made, and only once.
    expect(Math.max(...made)).toBe(MAX_DELIVERIES);
    expect(made.reduce((a, b) => a + b)).toBe(2 * endpoints);
    expect(made.length).toBeGreaterThanOrEqual(5);
    expect(
      await count(
        'SELECT count(*) AS n FROM (SELECT DISTINCT event_id, endpoint_id FROM webhook_deliveries) d',
      ),
    ).toBe(2 * endpoints);
    // In order: every delivery of the first event was made before any of the second.
    const [{ interleaved }] = await t.dataSource.query(
      `SELECT count(*)::int AS interleaved
         FROM webhook_deliveries a JOIN webhook_deliveries b ON a.id < b.id
        WHERE a.event_id > b.event_id`,
    );
    expect(interleaved).toBe(0);
  });

  it('reads the log from where it stopped, not from its first event', async () => {
    await t.dataSource.query(
      `INSERT INTO events (type, readers, read_scope, organization_id, data)
       SELECT 'pet.updated', 'everyone', 'pets:read', 1, '{}' FROM generate_series(1, 3000)`,
    );
    await numbered();
    const fanOut = t.app.get(DeliveryFanOut);
    while ((await fanOut.fanOut()) > 0);
    // The statement of a fan-out with nothing left to do (it changes nothing), as the instance
    // sends it every poll.
    const [
      {
        'QUERY PLAN': [plan],
      },
    ] = await t.dataSource.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${FAN_OUT.text}`, [
      100,
      MAX_DELIVERIES,
    ]);
    const eventsRead = rowsRead(plan.Plan as PlanNode, 'events');
    // The last event fanned out, at most: the 3,000 before it are behind the progress.
    expect(eventsRead).toBeLessThanOrEqual(1);
  });

  it('delivers on its own, without the test, when it polls', async () => {
    const quick = await startTestApp({
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      EVENT_SETTLE_INTERVAL_MS: '20',
    });
    try {
      await addEndpoints(1);
      await apiClient(quick.url, quick.auth)
        .post('/v1/pets')
        .send({ name: 'Rex', categoryId: 1 })
        .expect(201);
      await eventually(() => receiver.received.length === 1, 30_000, 'the delivery');
      expect(JSON.parse(receiver.received[0].body)).toMatchObject({ type: 'pet.created' });
    } finally {
      await quick.close();
    }
  });
});
