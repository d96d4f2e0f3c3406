import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';

/**
 * Fair use of webhook endpoints (docs/api.md, "Webhooks"; docs/adr/0047): endpoints per key are
 * capped by plan, under any concurrency and across instances, and creating them has a budget of
 * its own. The URLs point at a loopback receiver nobody runs: nothing is delivered here.
 */
jest.setTimeout(60_000);

const ADMIN_TOKEN = 'webhook-fair-use-admin-token-0123456789abc';
const SCOPES = ['pets:read', 'webhooks:manage'];
const BASE = { ADMIN_TOKEN, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };

describe('webhook endpoints: no key holds more than its plan allows', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    // Two instances on one database and one Redis prefix; a budget large enough not to refuse
    // the creations that test the cap.
    const env = {
      ...BASE,
      REDIS_KEY_PREFIX: `webhook-fair-use:${process.pid}:${Date.now()}:`,
      WEBHOOK_ENDPOINT_CREATIONS_PER_MINUTE: '1000',
    };
    [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
  });
  beforeEach(() => resetDatabase(a.dataSource));
  afterAll(() => Promise.all([a.close(), b.close()]));

  const create = (url: string, auth: Record<string, string>, i: number) =>
    apiClient(url, auth)
      .post('/v1/webhook-endpoints')
      .send({ url: `http://127.0.0.1:9/hook/${i}`, events: ['*'] });

  it('lets a free key have 3 endpoints; the 4th is a 409 naming the cap and deleteWebhookEndpoint', async () => {
    const { auth } = await a.issueKey({ plan: 'free', limits: undefined, scopes: SCOPES });
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await create(a.url, auth, i)).body.id as number);
    expect(created.every(Number.isInteger)).toBe(true);
    const refused = expectError(await create(a.url, auth, 3), 409, 'limit_reached');
    expect(refused.body.message).toContain('3 webhook endpoints');
    expect(refused.body.message).toContain('deleteWebhookEndpoint');
    // A disabled endpoint still counts; a deleted one frees its place.
    await apiClient(a.url, auth)
      .patch(`/v1/webhook-endpoints/${created[0]}`)
      .send({ enabled: false })
      .expect(200);
    expectError(await create(a.url, auth, 4), 409, 'limit_reached');
    await apiClient(a.url, auth).delete(`/v1/webhook-endpoints/${created[1]}`).expect(204);
    expect((await create(a.url, auth, 5)).status).toBe(201);
    expectError(await create(a.url, auth, 6), 409, 'limit_reached');
  });

  it('caps an enterprise key at its own limits.webhookEndpoints, set and shown by the admin API', async () => {
    const admin = apiClient(a.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const issued = await admin.post('/admin/api-keys').send({
      name: 'integrator',
      plan: 'enterprise',
      limits: { perMinute: 1000, perDay: 10_000, webhookEndpoints: 2 },
      scopes: SCOPES,
    });
    expect(issued.status).toBe(201);
    expect(issued.body.limits).toEqual({
      perMinute: 1000,
      perDay: 10_000,
      openOrders: 500,
      webhookEndpoints: 2,
    });
    const listed = (await admin.get('/admin/api-keys')).body as { id: number; limits: object }[];
    expect(listed.find((k) => k.id === issued.body.id)!.limits).toEqual(issued.body.limits);
    const auth = { authorization: `Bearer ${issued.body.key}` };
    expect((await create(b.url, auth, 0)).status).toBe(201);
    expect((await create(a.url, auth, 1)).status).toBe(201);
    const refused = expectError(await create(b.url, auth, 2), 409, 'limit_reached');
    expect(refused.body.message).toContain('2 webhook endpoints');
    // Only an enterprise key carries caps of its own.
    expectError(
      await admin.post('/admin/api-keys').send({
        name: 'x',
        plan: 'pro',
        limits: { perMinute: 1, perDay: 1, webhookEndpoints: 1 },
      }),
      400,
      'validation_failed',
    );
    expectError(
      await admin.post('/admin/api-keys').send({
        name: 'x',
        plan: 'enterprise',
        limits: { perMinute: 1, perDay: 1, webhookEndpoints: 0 },
      }),
      400,
      'validation_failed',
    );
  });

  it('shows the plan caps: pro 10, business 50', async () => {
    const admin = apiClient(a.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    for (const [plan, cap] of [
      ['free', 3],
      ['pro', 10],
      ['business', 50],
    ] as const) {
      const issued = await admin.post('/admin/api-keys').send({ name: plan, plan });
      expect(issued.body.limits.webhookEndpoints).toBe(cap);
    }
  });

  it('holds the cap when 30 creations of one key race over two instances', async () => {
    const { auth } = await a.issueKey({
      limits: { perMinute: 1_000_000, perDay: 100_000_000, webhookEndpoints: 4 },
      scopes: SCOPES,
    });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => create([a, b][i % 2].url, auth, i)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(4);
    expect(statuses.filter((s) => s === 409)).toHaveLength(26);
    const [{ count }] = await a.dataSource.query(
      'SELECT count(*)::int AS count FROM webhook_endpoints',
    );
    expect(count).toBe(4);
  });
});

describe('webhook endpoints: creations have a budget of their own', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    // The default budget, 10 a minute, shared by two instances through Redis.
    const env = { ...BASE, REDIS_KEY_PREFIX: `webhook-budget:${process.pid}:${Date.now()}:` };
    [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  it('admits 10 creations a minute per key across instances, then 429 with Retry-After', async () => {
    await awayFromMinuteEnd(15);
    await resetDatabase(a.dataSource);
    const { auth } = await a.issueKey({ scopes: SCOPES });
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        apiClient([a, b][i % 2].url, auth)
          .post('/v1/webhook-endpoints')
          .send({ url: `http://127.0.0.1:9/hook/${i}`, events: ['*'] }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(6);
    for (const response of refused) {
      expectError(response, 429, 'rate_limited');
      expect(response.body.message).toMatch(/^Endpoint creations: at most 10 a minute per key\./);
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(response.headers['x-ratelimit-remaining']).toBe('0');
    }
    // The key's other operations are not this budget's: listing still answers, with the key's
    // own headers.
    const listed = await apiClient(b.url, auth).get('/v1/webhook-endpoints').expect(200);
    expect(listed.body).toHaveLength(10);
    expect(Number(listed.headers['x-ratelimit-limit'])).toBeGreaterThan(10);
    // Another key has its own budget.
    const other = await a.issueKey({ scopes: SCOPES });
    const created = await apiClient(a.url, other.auth)
      .post('/v1/webhook-endpoints')
      .send({ url: 'http://127.0.0.1:9/hook/other', events: ['*'] });
    expect(created.status).toBe(201);
  });
});
