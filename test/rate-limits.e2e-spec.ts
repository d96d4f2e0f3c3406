import { apiClient, expectError, Response } from './support/http';
import { runClusterNodes } from './support/run-redis';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd, EXACT_ADMISSION_ENV, expectExactAdmission } from './support/windows';

// A test may first wait up to 10 s for the next minute window (awayFromMinuteEnd): Jest's
// default 5 s would fail it whenever it starts near the end of a minute.
jest.setTimeout(20_000);

const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';

function expectRateLimitHeaders(response: Response): void {
  for (const name of [
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'ratelimit-policy',
    'ratelimit',
  ]) {
    expect(response.headers[name]).toBeDefined();
  }
}

const endOfMinute = () => Math.floor(Date.now() / 60_000) * 60 + 60;
const endOfDay = () => Math.floor(Date.now() / 86_400_000) * 86_400 + 86_400;

describe('rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      ADMIN_TOKEN,
      BAN_THRESHOLD: '3',
      BAN_SECONDS: '120',
      ANONYMOUS_PER_MINUTE: '5',
    });
  });
  afterAll(() => t.close());

  it('gives a free key 60 requests a minute, then a 429 with Retry-After until the minute ends', async () => {
    await awayFromMinuteEnd();
    const { auth } = await t.issueKey({ plan: 'free', limits: undefined });
    const api = apiClient(t.url, auth);
    for (let i = 1; i <= 60; i++) {
      const response = await api.get('/v1/pets?limit=1');
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('60');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(60 - i));
      expect(response.headers['x-ratelimit-reset']).toBe(String(endOfMinute()));
    }
    const refused = expectError(await api.get('/v1/pets'), 429, 'rate_limited');
    expect(refused.body.message).toMatch(/per-minute limit of 60/);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    const retryAfter = Number(refused.headers['retry-after']);
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(Math.abs(Date.now() / 1000 + retryAfter - reset)).toBeLessThanOrEqual(1.5);
    // The IETF fields: the policy of both windows, and what is left of the one nearest exhaustion.
    expect(refused.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
    expect(refused.headers.ratelimit).toBe(`"minute";r=0;t=${retryAfter}`);
  });

  it('counts per key, not per route', async () => {
    await awayFromMinuteEnd();
    const { auth } = await t.issueKey({ limits: { perMinute: 3, perDay: 100 } });
    const api = apiClient(t.url, auth);
    expect((await api.get('/v1/pets')).status).toBe(200);
    expect((await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 })).status).toBe(201);
    expect((await api.get('/v1/pets/1')).status).not.toBe(429);
    expectError(await api.get('/v1/pets'), 429, 'rate_limited');
  });

  it('lets the day window take over when it has fewer requests left', async () => {
    await awayFromMinuteEnd();
    const { auth } = await t.issueKey({ limits: { perMinute: 10, perDay: 10 } });
    const api = apiClient(t.url, auth);
    for (let i = 0; i < 10; i++) expect((await api.get('/v1/pets')).status).toBe(200);
    const refused = expectError(await api.get('/v1/pets'), 429, 'rate_limited');
    expect(refused.body.message).toMatch(/per-day limit of 10/);
    // On the tie (both spent) the headers describe the window that ends later: the day.
    expect(refused.headers['x-ratelimit-reset']).toBe(String(endOfDay()));
    expect(refused.headers.ratelimit).toBe(`"day";r=0;t=${refused.headers['retry-after']}`);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60 - 1);
  });

  it('describes the minute window while it has fewer left than the day', async () => {
    await awayFromMinuteEnd();
    const { auth } = await t.issueKey({ limits: { perMinute: 10, perDay: 12 } });
    const response = await apiClient(t.url, auth).get('/v1/pets');
    expect(response.headers['x-ratelimit-limit']).toBe('10');
    for (let i = 0; i < 2; i++) await apiClient(t.url, auth).get('/v1/pets');
    const later = await apiClient(t.url, auth).get('/v1/pets');
    // minute: 6 left of 10; day: 8 left of 12 -> the minute still has fewer left.
    expect(later.headers['x-ratelimit-remaining']).toBe('6');
    expect(later.headers.ratelimit).toMatch(/^"minute";r=6;t=\d+$/);
  });

  it('puts the headers on 400, 401, 404, 405, 410-free errors and 415 alike', async () => {
    const { auth } = await t.issueKey();
    const api = apiClient(t.url, auth);
    const responses = [
      expectError(await api.get('/v1/pets?limit=0'), 400, 'validation_failed'),
      expectError(await apiClient(t.url).get('/v1/pets'), 401, 'unauthorized'),
      expectError(await api.get('/v1/pets/999999'), 404, 'not_found'),
      expectError(await api.get('/v1/unknown'), 404, 'not_found'),
      expectError(await api.delete('/v1/pets'), 405, 'method_not_allowed'),
      expectError(
        await api.post('/v1/pets').set('content-type', 'text/plain').send('x'),
        415,
        'unsupported_media_type',
      ),
      expectError(
        await api
          .post('/v1/pets')
          .set('content-type', 'application/json')
          .send(JSON.stringify({ pad: 'x'.repeat(20_000) })),
        413,
        'payload_too_large',
      ),
    ];
    responses.forEach(expectRateLimitHeaders);
  });

  it('limits requests without a valid key per client address, before telling them 401', async () => {
    const anonymous = await startTestApp({ ANONYMOUS_PER_MINUTE: '5' });
    try {
      await awayFromMinuteEnd();
      const api = apiClient(anonymous.url, { authorization: 'Bearer pet_test_guess' });
      for (let i = 0; i < 5; i++) {
        const response = expectError(await api.get('/v1/pets'), 401, 'unauthorized');
        expect(response.headers['x-ratelimit-limit']).toBe('5');
        expect(response.headers['ratelimit-policy']).toMatch(
          /^"minute";q=5;w=60, "day";q=\d+;w=86400$/,
        );
        expect(response.headers.ratelimit).toMatch(new RegExp(`^"minute";r=${4 - i};t=\\d+$`));
      }
      const refused = expectError(await api.get('/v1/pets'), 429, 'rate_limited');
      expect(refused.headers['ratelimit-policy']).toMatch(/^"minute";q=5;w=60, /);
      expect(refused.headers.ratelimit).toBe(`"minute";r=0;t=${refused.headers['retry-after']}`);
      // A valid key is counted on its own budget, not the address's.
      expect((await apiClient(anonymous.url, anonymous.auth).get('/v1/pets')).status).toBe(200);
    } finally {
      await anonymous.close();
    }
  });

  it('bans a key that keeps hammering after 429s, shows the ban, and lifts it', async () => {
    await awayFromMinuteEnd(10);
    const { id, auth } = await t.issueKey({ limits: { perMinute: 2, perDay: 1000 } });
    const api = apiClient(t.url, auth);
    const admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    await api.get('/v1/pets');
    await api.get('/v1/pets');
    for (let i = 0; i < 3; i++) expectError(await api.get('/v1/pets'), 429, 'rate_limited');
    // The fourth refusal within the minute passes BAN_THRESHOLD=3.
    const banned = expectError(await api.get('/v1/pets'), 429, 'key_temporarily_banned');
    expect(Number(banned.headers['retry-after'])).toBeGreaterThan(110);
    expect(Number(banned.headers['retry-after'])).toBeLessThanOrEqual(120);
    expectRateLimitHeaders(banned);
    expectError(await api.get('/v1/pets'), 429, 'key_temporarily_banned');

    const listed = (await admin.get('/admin/api-keys')).body.find(
      (k: { id: number }) => k.id === Number(id),
    );
    expect(Date.parse(listed.bannedUntil)).toBeGreaterThan(Date.now() + 100_000);

    expect((await admin.delete(`/admin/api-keys/${id}/ban`)).status).toBe(204);
    expect(
      (await admin.get('/admin/api-keys')).body.find((k: { id: number }) => k.id === Number(id))
        .bannedUntil,
    ).toBeNull();
    // No longer banned; the minute window is still spent.
    expectError(await api.get('/v1/pets'), 429, 'rate_limited');
  });

  it.each([
    [
      'ignores X-Forwarded-For by default',
      undefined,
      ['203.0.113.1', '203.0.113.2'],
      [200, 200, 429],
    ],
    [
      'believes one proxy hop with TRUST_PROXY=1',
      '1',
      ['203.0.113.1', '203.0.113.2'],
      [200, 200, 200],
    ],
    [
      'believes a proxy named by address',
      '127.0.0.1',
      ['203.0.113.1', '203.0.113.2'],
      [200, 200, 200],
    ],
    [
      'believes no hop from a peer that is not a named proxy',
      '10.0.0.1',
      ['203.0.113.1', '203.0.113.2'],
      [200, 200, 429],
    ],
    [
      'counts the socket when the forwarded address is not an IP address',
      '1',
      ['not-an-address', 'another one'],
      [200, 200, 429],
    ],
  ])('%s', async (_, trustProxy, [first, second], expected) => {
    const app = await startTestApp({
      ANONYMOUS_PER_MINUTE: '2',
      ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}),
    });
    try {
      await awayFromMinuteEnd();
      const statuses = [];
      for (const address of [first, first, second]) {
        statuses.push(
          (await apiClient(app.url, { 'x-forwarded-for': address }).get('/v1/pets')).status === 429
            ? 429
            : 200,
        );
      }
      expect(statuses).toEqual(expected);
    } finally {
      await app.close();
    }
  });

  it('does not limit health checks', async () => {
    const response = await apiClient(t.url).get('/health/live');
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('exactness', () => {
  const shared = Boolean(process.env.REDIS_URL);
  // The run's Redis: one server, or with TEST_REDIS=cluster a Redis Cluster.
  const shape = runClusterNodes() ? 'cluster' : 'single';
  const title = shared
    ? `two instances sharing Redis (${shape}) admit exactly L of several hundred concurrent requests, every time`
    : 'one instance admits exactly L of several hundred concurrent requests, every time';

  it(title, async () => {
    const prefix = `pet-adoption-exactness:${process.pid}:${Date.now()}:`;
    const instances = await Promise.all(
      Array.from({ length: shared ? 2 : 1 }, () =>
        startTestApp({ ...EXACT_ADMISSION_ENV, REDIS_KEY_PREFIX: prefix }),
      ),
    );
    try {
      if (shared) expect(instances[0].config.rateLimit.redis?.kind).toBe(shape);
      await expectExactAdmission(instances);
    } finally {
      await Promise.all(instances.map((i) => i.close()));
    }
  });
});
