import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { HostResolver } from '../src/webhooks/application/webhook-delivery';
import { FixedHostResolver } from './fakes/fixed-host-resolver';
import { freshDatabase } from './support/fresh-database';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { eventually, Received, WebhookReceiver } from './support/webhook-receiver';

/**
 * Webhooks against a real receiver on loopback (docs/api.md, "Webhooks"): every rule of delivery,
 * signing, retrying and disabling, with the allow-list that lets a test receive on 127.0.0.1.
 */
jest.setTimeout(120_000);

type Client = ReturnType<typeof apiClient>;

interface Endpoint {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  secret?: string;
}

const WEBHOOK_ENV = {
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  // Seconds between attempts: short, so that retries happen within a test.
  WEBHOOK_RETRY_SCHEDULE: '1,1',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_SECONDS: '10',
  // The suite's keys register far more than 10 endpoints a minute; the budget has its own spec
  // (webhook-fair-use.e2e-spec.ts).
  WEBHOOK_ENDPOINT_CREATIONS_PER_MINUTE: '10000',
};

describe('webhooks: endpoints and deliveries to a real receiver', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  /** Manages its webhooks, places orders, reads pets. */
  let customer: Client;
  /** Every order (orders:manage), with webhooks. */
  let shelter: Client;
  /** Another customer with webhooks, reading only its own orders. */
  let neighbour: Client;

  beforeAll(async () => {
    t = await startTestApp(WEBHOOK_ENV);
    const scopes = ['pets:read', 'pets:write', 'orders:read', 'orders:write', 'webhooks:manage'];
    customer = apiClient(t.url, (await t.issueKey({ scopes })).auth);
    shelter = apiClient(
      t.url,
      (
        await t.issueKey({
          scopes: ['pets:read', 'orders:manage', 'webhooks:manage'],
          organizationId: '1',
        })
      ).auth,
    );
    neighbour = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['orders:read', 'orders:write', 'webhooks:manage'] })).auth,
    );
  });
  beforeEach(async () => {
    await resetDatabase(t.dataSource);
    receiver = await new WebhookReceiver().start();
  });
  afterEach(() => receiver.stop());
  afterAll(() => t.close());

  const register = async (
    client: Client,
    body: object = {},
    path = '/hook',
  ): Promise<Endpoint & { secret: string }> => {
    const response = await client
      .post('/v1/webhook-endpoints')
      .send({ url: `${receiver.url}${path}`, events: ['*'], ...body });
    expect(response.status).toBe(201);
    return response.body;
  };
  const addPet = async () =>
    (await customer.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201)).body
      .id as number;
  const attempts = async (client: Client, endpoint: { id: number }) =>
    (await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=100`).expect(200))
      .body as Record<string, unknown>[];
  const verified = (secret: string, request: Received) =>
    new Webhook(secret).verify(request.body, {
      'webhook-id': request.headers['webhook-id'] as string,
      'webhook-timestamp': request.headers['webhook-timestamp'] as string,
      'webhook-signature': request.headers['webhook-signature'] as string,
    });

  describe('managing endpoints', () => {
    it('creates with a whsec_ secret shown once, and lists and gets without it', async () => {
      const created = await customer
        .post('/v1/webhook-endpoints')
        .send({ url: `${receiver.url}/hook`, events: ['order.placed'], description: 'Shop' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        url: `${receiver.url}/hook`,
        events: ['order.placed'],
        description: 'Shop',
        enabled: true,
        disabledReason: null,
        createdAt: expect.stringMatching(/Z$/),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(32);
      expect(created.headers['x-api-stability']).toBe('beta');
      expect(created.headers.location).toMatch(
        new RegExp(`/v1/webhook-endpoints/${created.body.id}$`),
      );
      const { secret, ...endpoint } = created.body;
      expect((await customer.get('/v1/webhook-endpoints').expect(200)).body).toEqual([endpoint]);
      expect((await customer.get(`/v1/webhook-endpoints/${endpoint.id}`).expect(200)).body).toEqual(
        endpoint,
      );
      const stored = JSON.stringify(
        await t.dataSource.query('SELECT * FROM webhook_endpoints WHERE id = $1', [endpoint.id]),
      );
      // Encrypted under the test environment's WEBHOOK_SECRETS_KEY (worker-environment.ts); kept
      // as issued without one (test/secrets-at-rest.e2e-spec.ts).
      expect(secret).toBeDefined();
      expect(stored).not.toContain(secret.slice('whsec_'.length));
      expect(stored).toContain('aes256gcm:');
    });

    it("keeps each key's endpoints its own: another key's is a 404 to every operation", async () => {
      const mine = await register(customer);
      expect((await neighbour.get('/v1/webhook-endpoints').expect(200)).body).toEqual([]);
      const path = `/v1/webhook-endpoints/${mine.id}`;
      expectError(await neighbour.get(path), 404, 'not_found');
      expectError(await neighbour.patch(path).send({ enabled: false }), 404, 'not_found');
      expectError(await neighbour.delete(path), 404, 'not_found');
      expectError(await neighbour.post(`${path}/rotate-secret`), 404, 'not_found');
      expectError(await neighbour.post(`${path}/ping`), 404, 'not_found');
      expectError(await neighbour.get(`${path}/deliveries`), 404, 'not_found');
      expectError(
        await neighbour.post(`${path}/recover`).send({ since: '2026-01-01T00:00:00Z' }),
        404,
        'not_found',
      );
      expect((await customer.get(path).expect(200)).body.enabled).toBe(true);
    });

    it('needs webhooks:manage, which no key has by default', async () => {
      const plain = apiClient(t.url, (await t.issueKey()).auth);
      expectError(await plain.get('/v1/webhook-endpoints'), 403, 'forbidden');
      expectError(
        await plain.post('/v1/webhook-endpoints').send({ url: receiver.url, events: ['*'] }),
        403,
        'forbidden',
      );
    });

    it.each([
      [{ url: 'ftp://example.com/hook', events: ['*'] }],
      [{ url: 'https://user:pass@example.com/hook', events: ['*'] }],
      [{ url: 'https://localhost/hook', events: ['*'] }],
      [{ url: 'https://api.localhost./hook', events: ['*'] }],
      [{ url: 'https://169.254.169.254/latest', events: ['*'] }],
      [{ url: 'http://10.0.0.1/hook', events: ['*'] }],
      [{ url: 'https://[::1]/hook', events: ['*'] }],
      [{ url: 'not a url', events: ['*'] }],
      [{ url: 'https://example.com/hook', events: [] }],
      [{ url: 'https://example.com/hook', events: ['pet.eaten'] }],
      [{ url: 'https://example.com/hook', events: ['webhook.test'] }],
      [{ url: 'https://example.com/hook', events: ['pet.created', 'pet.created'] }],
      [{ url: 'https://example.com/hook', events: '*' }],
      [{ url: 'https://example.com/hook' }],
      [{ url: 'https://example.com/hook', events: ['*'], secret: 'whsec_mine' }],
      [{ url: 'https://example.com/hook', events: ['*'], description: 'x'.repeat(501) }],
    ])('refuses %j with 400, storing nothing', async (body) => {
      expectError(
        await customer.post('/v1/webhook-endpoints').send(body),
        400,
        'validation_failed',
      );
      expect(await t.dataSource.query('SELECT id FROM webhook_endpoints')).toEqual([]);
    });

    it('updates what is given, refuses what is invalid, and deletes', async () => {
      const endpoint = await register(customer, { description: 'first' });
      const path = `/v1/webhook-endpoints/${endpoint.id}`;
      const changed = await customer
        .patch(path)
        .set('content-type', 'application/merge-patch+json')
        .send(JSON.stringify({ events: ['pet.created'], description: null }));
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        events: ['pet.created'],
        description: null,
        url: endpoint.url,
      });
      expectError(
        await customer.patch(path).send({ url: 'https://[::ffff:169.254.169.254]/' }),
        400,
        'validation_failed',
      );
      expectError(await customer.patch(path).send({ enabled: null }), 400, 'validation_failed');
      expectError(await customer.patch(path).send({ secret: 'x' }), 400, 'validation_failed');
      await customer.delete(path).expect(204);
      expectError(await customer.get(path), 404, 'not_found');
    });

    it('an endpoint deleted while a change commits: the change never waits for it, and gets no delivery', async () => {
      // Two sessions at once: the embedded engine serves one, so this runs on a real server (a
      // throw-away one when the run uses the embedded engine) with a pool of its own.
      const database = await freshDatabase();
      const app = await startTestApp({
        ...WEBHOOK_ENV,
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: '10',
      });
      const deleting = app.dataSource.createQueryRunner();
      try {
        const owner = apiClient(
          app.url,
          (await app.issueKey({ scopes: ['pets:read', 'pets:write', 'webhooks:manage'] })).auth,
        );
        const endpoint = await register(owner);
        // The deletion under way, not committed yet: its row is locked until the commit.
        await deleting.connect();
        await deleting.startTransaction();
        await deleting.query('DELETE FROM webhook_endpoints WHERE id = $1', [endpoint.id]);
        // The change records its event and commits: it touches no endpoint (docs/adr/0048).
        const response = await owner.post('/v1/pets').send({ name: 'Rex', categoryId: 1 });
        expect(response.status).toBe(201);
        await deleting.commitTransaction();
        expect(
          await app.dataSource.query('SELECT type FROM events WHERE data->>$1 = $2', [
            'id',
            String(response.body.id),
          ]),
        ).toEqual([{ type: 'pet.created' }]);
        // Fanned out once the deletion ended (the event settles only then): to no one.
        await eventually(
          async () =>
            (
              await app.dataSource.query(
                `SELECT 1 FROM webhook_fan_out f JOIN events e ON e.public_id <= f.after_event
                  WHERE e.type = 'pet.created'`,
              )
            ).length === 1,
          30_000,
          'the event to be fanned out',
        );
        expect(await app.dataSource.query('SELECT id FROM webhook_deliveries')).toEqual([]);
      } finally {
        if (deleting.isTransactionActive) await deleting.rollbackTransaction();
        await deleting.release();
        await app.close();
        await database.drop();
      }
    });
  });

  describe('delivering', () => {
    it('POSTs each event the key may read, signed as Standard Webhooks says, with the event as the feed has it', async () => {
      const endpoint = await register(customer);
      const petId = await addPet();
      const order = (await customer.post('/v1/store/orders').send({ petId }).expect(201)).body;
      await eventually(() => receiver.received.length >= 3, 30_000, 'three deliveries');
      // The feed shows an event once every older transaction has ended: soon, not always at once.
      const feed = await eventually(async () => {
        const body = (await customer.get('/v1/events').expect(200)).body;
        return body.length === 3 && body;
      }, 60_000);
      expect(feed.map(({ type }: { type: string }) => type)).toEqual([
        'pet.created',
        'order.placed',
        'pet.updated',
      ]);
      const byId = new Map(receiver.received.map((r) => [r.headers['webhook-id'], r]));
      for (const event of feed) {
        const request = byId.get(event.id)!;
        expect(request.headers['content-type']).toBe('application/json');
        expect(JSON.parse(request.body)).toEqual(event);
        expect(verified(endpoint.secret, request)).toEqual(event);
        expect(
          Math.abs(Number(request.headers['webhook-timestamp']) * 1000 - Date.now()),
        ).toBeLessThan(60_000);
        expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      }
      expect(JSON.parse(byId.get(feed[1].id)!.body).data).toEqual(order);
      // Tampering is caught by the stock verifier.
      const [first] = receiver.received;
      expect(() =>
        verified(endpoint.secret, { ...first, body: first.body.replace('Rex', 'Max') }),
      ).toThrow();
      await eventually(async () => (await attempts(customer, endpoint)).length === 3);
      expect((await attempts(customer, endpoint))[0]).toEqual({
        id: expect.any(Number),
        eventId: expect.stringMatching(/^evt_/),
        eventType: expect.any(String),
        attempt: 1,
        outcome: 'succeeded',
        responseStatus: 204,
        error: null,
        durationMs: expect.any(Number),
        attemptedAt: expect.any(String),
        nextAttemptAt: null,
      });
    });

    it('sends only the types an endpoint subscribes to', async () => {
      await register(customer, { events: ['order.placed'] });
      const petId = await addPet();
      await customer.post('/v1/store/orders').send({ petId }).expect(201);
      await eventually(() => receiver.received.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['order.placed']);
    });

    it('never sends an endpoint an order event its key could not read', async () => {
      await register(neighbour, {}, '/neighbour');
      await register(shelter, { events: ['order.placed'] }, '/shelter');
      const petId = await addPet();
      await customer.post('/v1/store/orders').send({ petId }).expect(201);
      const other = await addPet();
      await neighbour.post('/v1/store/orders').send({ petId: other }).expect(201);
      await eventually(() => receiver.to('/shelter').length >= 2);
      await eventually(() => receiver.to('/neighbour').length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The neighbour reads only its own orders, and no pets: its one order, nothing else.
      expect(
        receiver
          .to('/neighbour')
          .map((r) => [JSON.parse(r.body).type, JSON.parse(r.body).data.petId]),
      ).toEqual([['order.placed', other]]);
      expect(receiver.to('/shelter')).toHaveLength(2);
    });

    it('checks what the key may read when sending, not only when queueing', async () => {
      const issued = await t.issueKey({ scopes: ['pets:read', 'webhooks:manage'] });
      const reader = apiClient(t.url, issued.auth);
      receiver.respond = (_, response) => response.writeHead(500).end();
      const endpoint = await register(reader);
      await addPet();
      await eventually(() => receiver.received.length >= 1);
      await t.dataSource.query(`UPDATE api_keys SET scopes = '{webhooks:manage}' WHERE id = $1`, [
        issued.id,
      ]);
      // The instance trusts a key's scopes for a moment; the delivery reads them from the database.
      await eventually(
        async () =>
          (await t.dataSource.query(`SELECT state FROM webhook_deliveries`))[0].state === 'dropped',
      );
      expect(receiver.received).toHaveLength(1);
      expect(endpoint.id).toBeDefined();
    });

    it('retries a failing receiver with the same webhook-id, then fails the delivery for good', async () => {
      receiver.respond = (_, response) => response.writeHead(500).end('{"oops":true}');
      const endpoint = await register(customer, { events: ['pet.created'] });
      await addPet();
      await eventually(() => receiver.received.length >= 3, 30_000, 'three attempts');
      const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      const [third, second, first] = await eventually(async () => {
        const list = await attempts(customer, endpoint);
        return list.length === 3 && list;
      });
      expect([first.attempt, second.attempt, third.attempt]).toEqual([1, 2, 3]);
      expect([first.outcome, first.responseStatus, first.error]).toEqual(['failed', 500, null]);
      // The schedule is 1 s ± 20 % between attempts; after the last, none is due.
      const gap =
        Date.parse(first.nextAttemptAt as string) - Date.parse(first.attemptedAt as string);
      expect(gap).toBeGreaterThanOrEqual(700);
      expect(gap).toBeLessThan(1_400 + Number(first.durationMs));
      expect(third.nextAttemptAt).toBeNull();
      expect(JSON.stringify(third)).not.toContain('oops');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.received).toHaveLength(3);
    });

    it('counts attempts by outcome in /metrics, and times the sending alone, as the attempts list it', async () => {
      const scrape = async () => {
        const text = (await request(t.url).get('/metrics').expect(200)).text;
        const value = (series: string) =>
          Number(text.match(new RegExp(`^${series} (\\S+)$`, 'm'))?.[1] ?? NaN);
        return {
          failed: value('webhook_delivery_attempts_total\\{outcome="failed"\\}'),
          timed: value('webhook_attempt_duration_seconds_count'),
          seconds: value('webhook_attempt_duration_seconds_sum'),
        };
      };
      const before = await scrape();
      receiver.respond = (_, response) => setTimeout(() => response.writeHead(500).end(), 100);
      const endpoint = await register(customer, { events: ['pet.created'] });
      await addPet();
      const list = await eventually(async () => {
        const made = await attempts(customer, endpoint);
        return made.length === 3 && made;
      });
      const after = await eventually(async () => {
        const now = await scrape();
        return now.timed - before.timed === 3 && now;
      });
      expect(after.failed - before.failed).toBe(3);
      // Each attempt's durationMs is rounded to the millisecond; recording the outcome in the
      // database is not part of the attempt's time.
      const sent = list.reduce((sum, attempt) => sum + Number(attempt.durationMs), 0) / 1000;
      expect(Math.abs(after.seconds - before.seconds - sent)).toBeLessThanOrEqual(0.0016);
      expect(sent).toBeGreaterThanOrEqual(0.3);
    });

    it('a receiver down for a while gets every event once it is back', async () => {
      const port = receiver.port;
      await register(customer, { events: ['pet.created'] });
      await receiver.stop();
      await t.dataSource.query(`UPDATE webhook_endpoints SET url = $1`, [
        `http://127.0.0.1:${port}/hook`,
      ]);
      for (let i = 0; i < 3; i++) await addPet();
      await eventually(async () => {
        const rows = await t.dataSource.query(
          `SELECT count(*)::int AS n FROM webhook_attempts WHERE error = 'connection_failed'`,
        );
        return rows[0].n >= 3;
      });
      receiver = await new WebhookReceiver().start(port);
      await eventually(() => receiver.received.length >= 3, 30_000, 'the three events');
      expect(receiver.received.map((r) => JSON.parse(r.body).data.id).sort()).toEqual([1, 2, 3]);
      // A success ends the failing streak; one more leaves the endpoint's row as it is.
      const endpointRow = async () =>
        (
          await t.dataSource.query(
            `SELECT xmin::text AS version, failing_since AS "failingSince" FROM webhook_endpoints`,
          )
        )[0] as { version: string; failingSince: Date | null };
      const succeeded = async (n: number) =>
        (
          await t.dataSource.query(
            `SELECT count(*)::int AS n FROM webhook_attempts WHERE outcome = 'succeeded'`,
          )
        )[0].n >= n;
      await eventually(() => succeeded(3));
      const healthy = await endpointRow();
      expect(healthy.failingSince).toBeNull();
      await addPet();
      await eventually(() => succeeded(4));
      expect((await endpointRow()).version).toBe(healthy.version);
    });

    it('follows no redirect: a 3xx fails the attempt', async () => {
      receiver.respond = (request, response) =>
        request.path === '/hook'
          ? response.writeHead(307, { location: `${receiver.url}/elsewhere` }).end()
          : response.writeHead(204).end();
      const endpoint = await register(customer, { events: ['pet.created'] });
      await addPet();
      const [attempt] = await eventually(async () => {
        const list = await attempts(customer, endpoint);
        return list.length >= 1 && list;
      });
      expect([attempt.outcome, attempt.responseStatus]).toEqual(['failed', 307]);
      expect(receiver.to('/elsewhere')).toEqual([]);
    });

    it('410 disables the endpoint at once (gone); re-enabling resumes its deliveries', async () => {
      receiver.respond = (_, response) => response.writeHead(410).end();
      const endpoint = await register(customer, { events: ['pet.created'] });
      await addPet();
      const path = `/v1/webhook-endpoints/${endpoint.id}`;
      await eventually(async () => (await customer.get(path)).body.disabledReason === 'gone');
      expect((await customer.get(path)).body.enabled).toBe(false);
      await addPet();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.received).toHaveLength(1);
      receiver.respond = (_, response) => response.writeHead(200).end();
      const enabled = await customer.patch(path).send({ enabled: true }).expect(200);
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
      // The first event's delivery resumes (its schedule still had attempts left).
      await eventually(() => receiver.received.length >= 2);
      expect(JSON.parse(receiver.received[1].body).data.id).toBe(1);
    });

    it('an endpoint failing everything for WEBHOOK_DISABLE_AFTER_HOURS is disabled (failing)', async () => {
      receiver.respond = (_, response) => response.writeHead(503).end();
      const endpoint = await register(customer, { events: ['pet.created'] });
      await addPet();
      await eventually(() => receiver.received.length >= 1);
      await t.dataSource.query(
        `UPDATE webhook_endpoints SET failing_since = now() - interval '121 hours'`,
      );
      await eventually(
        async () =>
          (await customer.get(`/v1/webhook-endpoints/${endpoint.id}`)).body.disabledReason ===
          'failing',
      );
    });

    it("a 429's Retry-After delays the next attempt (at most an hour)", async () => {
      receiver.respond = (_, response) => response.writeHead(429, { 'retry-after': '4' }).end();
      const endpoint = await register(customer, { events: ['pet.created'] });
      await addPet();
      const [attempt] = await eventually(async () => {
        const list = await attempts(customer, endpoint);
        return list.length >= 1 && list;
      });
      const gap =
        Date.parse(attempt.nextAttemptAt as string) - Date.parse(attempt.attemptedAt as string);
      expect(gap).toBeGreaterThanOrEqual(4_000);
      receiver.respond = (_, response) => response.writeHead(503, { 'retry-after': '99999' }).end();
      await t.dataSource.query(`UPDATE webhook_deliveries SET next_attempt_at = now()`);
      const [second] = await eventually(async () => {
        const list = await attempts(customer, endpoint);
        return list.length >= 2 && list;
      });
      const capped =
        Date.parse(second.nextAttemptAt as string) - Date.parse(second.attemptedAt as string);
      expect(capped).toBeGreaterThanOrEqual(3_600_000 - 5_000);
      expect(capped).toBeLessThanOrEqual(3_600_000 + 5_000);
    });

    it('bounds the whole attempt by the timeout, and reads no more than 64 KiB of an answer', async () => {
      receiver.respond = (request, response) => {
        if (request.path === '/silent') return; // never answers
        // A 200 whose body never ends: succeeds once 64 KiB are read, without waiting for more.
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(16 * 1024);
        const pump = () => {
          while (response.write(chunk));
        };
        response.on('drain', pump);
        pump();
      };
      const silent = await register(customer, { events: ['pet.created'] }, '/silent');
      const endless = await register(customer, { events: ['pet.created'] }, '/endless');
      await addPet();
      const [timedOut] = await eventually(async () => {
        const list = await attempts(customer, silent);
        return list.length >= 1 && list;
      });
      expect([timedOut.outcome, timedOut.error, timedOut.responseStatus]).toEqual([
        'failed',
        'timeout',
        null,
      ]);
      expect(Number(timedOut.durationMs)).toBeGreaterThanOrEqual(900);
      expect(Number(timedOut.durationMs)).toBeLessThan(5_000);
      const [read] = await eventually(async () => {
        const list = await attempts(customer, endless);
        return list.length >= 1 && list;
      });
      expect([read.outcome, read.responseStatus]).toEqual(['succeeded', 200]);
      expect(Number(read.durationMs)).toBeLessThan(1_000);
    });

    it('a slow endpoint does not delay another', async () => {
      receiver.respond = (request, response) => {
        if (request.path === '/slow') return; // times out
        response.writeHead(204).end();
      };
      await register(customer, { events: ['pet.created'] }, '/slow');
      await register(customer, { events: ['pet.created'] }, '/fast');
      const started = Date.now();
      for (let i = 0; i < 12; i++) await addPet();
      await eventually(() => receiver.to('/fast').length >= 12, 10_000, 'the fast endpoint');
      // The slow one holds its attempts for a whole timeout (1 s) each, 4 at a time.
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  });

  describe('secrets, pings and recovery', () => {
    it('after a rotation, signs with both secrets for a day, each verifying', async () => {
      const endpoint = await register(customer, { events: ['pet.created'] });
      const rotated = await customer
        .post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)
        .expect(200);
      expect(rotated.body).toEqual({ secret: expect.stringMatching(/^whsec_/) });
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      await addPet();
      const [request] = await eventually(() => receiver.received.length >= 1 && receiver.received);
      expect((request.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
      expect(verified(endpoint.secret, request)).toMatchObject({ type: 'pet.created' });
      expect(verified(rotated.body.secret, request)).toMatchObject({ type: 'pet.created' });
      await t.dataSource.query(
        `UPDATE webhook_endpoints SET previous_secret_until = now() - interval '1 second'`,
      );
      await addPet();
      await eventually(() => receiver.received.length >= 2);
      const later = receiver.received[1];
      expect((later.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
      expect(() => verified(endpoint.secret, later)).toThrow();
      expect(verified(rotated.body.secret, later)).toMatchObject({ type: 'pet.created' });
    });

    it('a ping sends webhook.test to that endpoint only, and the feed never shows it', async () => {
      const pinged = await register(customer, { events: ['order.placed'] }, '/pinged');
      await register(customer, {}, '/other');
      await customer.post(`/v1/webhook-endpoints/${pinged.id}/ping`).expect(202);
      const [request] = await eventually(() => receiver.received.length >= 1 && receiver.received);
      expect(request.path).toBe('/pinged');
      const event = verified(pinged.secret, request) as { type: string; data: unknown };
      expect(event).toMatchObject({ type: 'webhook.test', data: { endpointId: pinged.id } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).toHaveLength(1);
      expect((await customer.get('/v1/events').expect(200)).body).toEqual([]);
    });

    it('recover sends failed deliveries again, with the same webhook-id', async () => {
      receiver.respond = (_, response) => response.writeHead(500).end();
      const endpoint = await register(customer, { events: ['pet.created'] });
      await addPet();
      await eventually(async () => {
        const [row] = await t.dataSource.query(`SELECT state FROM webhook_deliveries`);
        return row?.state === 'failed';
      }, 30_000);
      const id = receiver.received[0].headers['webhook-id'];
      receiver.respond = (_, response) => response.writeHead(204).end();
      await customer
        .post(`/v1/webhook-endpoints/${endpoint.id}/recover`)
        .send({ since: new Date(Date.now() - 60_000).toISOString() })
        .expect(202);
      await eventually(() => receiver.received.length >= 4);
      expect(receiver.received[3].headers['webhook-id']).toBe(id);
      expectError(
        await customer
          .post(`/v1/webhook-endpoints/${endpoint.id}/recover`)
          .send({ since: 'yesterday' }),
        400,
        'validation_failed',
      );
    });
  });
});

describe('webhooks without an allow-list: no private address is ever called', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let customer: Client;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ ...WEBHOOK_ENV, WEBHOOK_ALLOWED_NETWORKS: '' }, (builder) =>
      builder.overrideProvider(HostResolver).useValue(
        new FixedHostResolver({
          localtest: ['127.0.0.1'],
          'twofaced.test': ['93.184.215.14', '127.0.0.1'],
        }),
      ),
    );
    const scopes = ['pets:read', 'pets:write', 'webhooks:manage'];
    customer = apiClient(t.url, (await t.issueKey({ scopes })).auth);
    await resetDatabase(t.dataSource);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('refuses plain http and private literals at registration', async () => {
    for (const url of [
      receiver.url,
      `https://127.0.0.1:${receiver.port}/`,
      `https://2130706433:${receiver.port}/`,
      `https://0x7f.0.0.1:${receiver.port}/`,
      `https://[::ffff:127.0.0.1]:${receiver.port}/`,
    ]) {
      expectError(
        await customer.post('/v1/webhook-endpoints').send({ url, events: ['*'] }),
        400,
        'validation_failed',
      );
    }
  });

  it('a name resolving to loopback is registered, but never called: address_refused', async () => {
    const endpoints = [];
    for (const host of ['localtest', 'twofaced.test']) {
      const response = await customer
        .post('/v1/webhook-endpoints')
        .send({ url: `https://${host}:${receiver.port}/hook`, events: ['pet.created'] });
      expect(response.status).toBe(201);
      endpoints.push(response.body);
    }
    await customer.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    for (const endpoint of endpoints) {
      const [attempt] = await eventually(async () => {
        const list = (await customer.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)).body;
        return list.length >= 1 && list;
      });
      expect([attempt.outcome, attempt.error, attempt.responseStatus]).toEqual([
        'failed',
        'address_refused',
        null,
      ]);
    }
    expect(receiver.connections).toBe(0);
  });
});
