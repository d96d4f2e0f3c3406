import { ApiKeyAuthenticator } from '@pet-adoption/api-keys';
import { apiClient, expectError, request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';

// A test may first wait up to 10 s for the next minute window (awayFromMinuteEnd).
jest.setTimeout(20_000);

const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('API keys on the public API', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['get', '/v1/pets'],
    ['post', '/v1/pets'],
    ['get', '/v1/pets/1'],
  ] as const)(
    '%s %s without a key is a 401 with a Bearer challenge and the rate-limit headers',
    async (method, path) => {
      const response = expectError(await apiClient(t.url)[method](path), 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.headers['x-ratelimit-limit']).toBeDefined();
    },
  );

  it.each([
    ['an unknown key', 'Bearer pet_test_0000000000000000000000000000000000000000000'],
    ['a malformed header', 'Token abc'],
    ['Basic credentials', 'Basic dXNlcjpwYXNz'],
  ])('refuses %s with error="invalid_token"', async (_, authorization) => {
    const response = expectError(
      await apiClient(t.url, { authorization }).get('/v1/pets'),
      401,
      'unauthorized',
    );
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('checks the key before the body: an unauthenticated bad body is a 401', async () => {
    const response = await apiClient(t.url)
      .post('/v1/pets')
      .set('content-type', 'application/json')
      .send('{oops');
    expectError(response, 401, 'unauthorized');
  });

  it('checks the route before the key: an unknown route without a key is a 404', async () => {
    expectError(await apiClient(t.url).get('/v1/nowhere'), 404, 'not_found');
  });

  it('accepts a lower-case scheme', async () => {
    const { key } = await t.issueKey({ plan: 'free', limits: undefined });
    expect(
      (await apiClient(t.url, { authorization: `bearer ${key}` }).get('/v1/pets')).status,
    ).toBe(200);
  });

  it('leaves the documentation and health open', async () => {
    for (const path of ['/v1/openapi.json', '/v1/docs', '/health/live', '/health/ready']) {
      expect((await request(t.url).get(path)).status).toBe(200);
    }
  });
});

describe('the admin API when ADMIN_TOKEN is unset', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN: '' });
  });
  afterAll(() => t.close());

  it.each([
    ['get', '/admin/api-keys'],
    ['post', '/admin/api-keys'],
    ['delete', '/admin/api-keys/1'],
    ['delete', '/admin/api-keys/1/ban'],
    ['get', '/admin/openapi.json'],
  ] as const)('answers 404 to %s %s, even with a token', async (method, path) => {
    expectError(await apiClient(t.url, admin)[method](path), 404, 'not_found');
  });
});

describe('the admin API', () => {
  let t: TestApp;
  let other: TestApp;
  const adminApi = () => apiClient(t.url, admin);

  beforeAll(async () => {
    // Two instances of one deployment: one Redis namespace, through which key changes travel.
    t = await startTestApp({ ADMIN_TOKEN });
    other = await startTestApp({
      ADMIN_TOKEN,
      REDIS_KEY_PREFIX: t.config.rateLimit.redisKeyPrefix,
    });
  });
  afterAll(async () => {
    await t.close();
    await other.close();
  });

  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer not-the-admin-token' }],
    ['an API key', { authorization: 'Bearer pet_test_x' }],
  ])('refuses %s with a 401', async (_, headers) => {
    const response = expectError(
      await apiClient(t.url, headers).get('/admin/api-keys'),
      401,
      'unauthorized',
    );
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('refuses an address with more than 10 failed authentications in a minute, right token or not, until the minute ends', async () => {
    const proxied = await startTestApp({ ADMIN_TOKEN, TRUST_PROXY: '1' });
    try {
      // One minute window from here on, not from before the start-up, which a loaded machine
      // can make outlast the wait.
      await awayFromMinuteEnd(10);
      const from = (address: string, authorization: string) =>
        apiClient(proxied.url, { authorization, 'x-forwarded-for': address }).get(
          '/admin/api-keys',
        );
      // Successes never count.
      for (let i = 0; i < 20; i++)
        expect((await from('203.0.113.7', `Bearer ${ADMIN_TOKEN}`)).status).toBe(200);
      for (let i = 0; i < 10; i++) {
        expectError(await from('203.0.113.7', `Bearer guess-${i}`), 401, 'unauthorized');
      }
      const refused = expectError(
        await from('203.0.113.7', 'Bearer guess-10'),
        429,
        'rate_limited',
      );
      const retryAfter = Number(refused.headers['retry-after']);
      const untilMinuteEnd = Math.ceil((60_000 - (Date.now() % 60_000)) / 1000);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(Math.abs(retryAfter - untilMinuteEnd)).toBeLessThanOrEqual(1);
      expectError(await from('203.0.113.7', `Bearer ${ADMIN_TOKEN}`), 429, 'rate_limited');
      // Another address is not affected, nor is the API itself for this one.
      expect((await from('203.0.113.8', `Bearer ${ADMIN_TOKEN}`)).status).toBe(200);
      const { auth } = await proxied.issueKey();
      const pets = await apiClient(proxied.url, { ...auth, 'x-forwarded-for': '203.0.113.7' }).get(
        '/v1/pets',
      );
      expect(pets.status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('counts each attempt before comparing: in a burst of 60 guesses with the right token among them, at most 10 are compared', async () => {
    const proxied = await startTestApp({ ADMIN_TOKEN, TRUST_PROXY: '1' });
    try {
      for (let trial = 0; trial < 5; trial++) {
        await awayFromMinuteEnd(10);
        const address = `203.0.113.${20 + trial}`;
        const from = (authorization: string) =>
          apiClient(proxied.url, { authorization, 'x-forwarded-for': address }).get(
            '/admin/api-keys',
          );
        // Ten failures already in; the right token comes first and in the middle of the next burst.
        for (let i = 0; i < 10; i++) expect((await from(`Bearer guess-${i}`)).status).toBe(401);
        const burst = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            from(i % 30 === 0 ? `Bearer ${ADMIN_TOKEN}` : `Bearer burst-${i}`),
          ),
        );
        expect(burst.map((r) => r.status)).toEqual(Array(60).fill(429));
      }
      // A burst from a fresh address: no more than ten of its guesses are compared.
      await awayFromMinuteEnd(10);
      const burst = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          apiClient(proxied.url, {
            authorization: `Bearer burst-${i}`,
            'x-forwarded-for': '203.0.113.30',
          }).get('/admin/api-keys'),
        ),
      );
      const statuses = burst.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(50);
      // Successes give their slot back: an admin's own burst is never locked out by itself.
      const admin = await Promise.all(
        Array.from({ length: 10 }, () =>
          apiClient(proxied.url, {
            authorization: `Bearer ${ADMIN_TOKEN}`,
            'x-forwarded-for': '203.0.113.31',
          }).get('/admin/api-keys'),
        ),
      );
      expect(admin.map((r) => r.status)).toEqual(Array(10).fill(200));
      for (let i = 0; i < 10; i++) {
        const guess = await apiClient(proxied.url, {
          authorization: `Bearer guess-${i}`,
          'x-forwarded-for': '203.0.113.31',
        }).get('/admin/api-keys');
        expect(guess.status).toBe(401);
      }
    } finally {
      await proxied.close();
    }
  });

  it('counts failed authentications of forwarded values that are not IP addresses against the socket address', async () => {
    const proxied = await startTestApp({ ADMIN_TOKEN, TRUST_PROXY: '1' });
    try {
      // One minute window from here on, not from before the start-up, which a loaded machine
      // can make outlast the wait.
      await awayFromMinuteEnd(10);
      const from = (forwarded: string, authorization: string) =>
        apiClient(proxied.url, { authorization, 'x-forwarded-for': forwarded }).get(
          '/admin/api-keys',
        );
      // A new made-up value each time: were each its own address, none would ever be refused.
      for (let i = 0; i < 10; i++) {
        expectError(await from(`not-an-address-${i}`, `Bearer guess-${i}`), 401, 'unauthorized');
      }
      expectError(await from('not-an-address-10', 'Bearer guess-10'), 429, 'rate_limited');
      expectError(await from('yet another', `Bearer ${ADMIN_TOKEN}`), 429, 'rate_limited');
      // A forwarded IP address is still its own.
      expect((await from('203.0.113.9', `Bearer ${ADMIN_TOKEN}`)).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('refuses a real API key as the admin token', async () => {
    const { auth } = await t.issueKey();
    expectError(await apiClient(t.url, auth).get('/admin/api-keys'), 401, 'unauthorized');
  });

  it.each([
    ['an unknown plan', { name: 'a', plan: 'gold' }, /plan/],
    ['an enterprise key without limits', { name: 'a', plan: 'enterprise' }, /limits/],
    [
      'limits on a free key',
      { name: 'a', plan: 'free', limits: { perMinute: 5, perDay: 50 } },
      /limits/,
    ],
    [
      'zero limits',
      { name: 'a', plan: 'enterprise', limits: { perMinute: 0, perDay: 50 } },
      /perMinute/,
    ],
    [
      'negative limits',
      { name: 'a', plan: 'enterprise', limits: { perMinute: 5, perDay: -1 } },
      /perDay/,
    ],
    [
      'string limits',
      { name: 'a', plan: 'enterprise', limits: { perMinute: '5', perDay: 50 } },
      /perMinute/,
    ],
    ['no name', { plan: 'free' }, /name/],
    ['an unknown property', { name: 'a', plan: 'free', owner: 'me' }, /owner/],
  ])('refuses to issue a key with %s (400)', async (_, body, field) => {
    const before = (await adminApi().get('/admin/api-keys')).body.length;
    const response = expectError(
      await adminApi().post('/admin/api-keys').send(body),
      400,
      'validation_failed',
    );
    expect(response.body.message).toMatch(field);
    expect((await adminApi().get('/admin/api-keys')).body).toHaveLength(before);
  });

  it('issues, lists, tracks use of, and revokes a key, refused on every instance within 1 s', async () => {
    const issued = await adminApi()
      .post('/admin/api-keys')
      .send({ name: 'Acme', plan: 'enterprise', limits: { perMinute: 100, perDay: 1000 } });
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({
      id: expect.any(Number),
      name: 'Acme',
      plan: 'enterprise',
      limits: { perMinute: 100, perDay: 1000, openOrders: 500, webhookEndpoints: 50 },
      // A key issued without scopes: all of v1, its own orders and (v1.4) its own applications.
      scopes: ['pets:read', 'pets:write', 'orders:read', 'orders:write', 'applications:write'],
      organizationId: null,
      expiresAt: null,
      prefix: issued.body.key.slice(0, 13),
      key: expect.stringMatching(/^pet_test_[A-Za-z0-9_-]{43}$/),
      createdAt: expect.any(String),
    });
    const { id, key } = issued.body;
    const auth = { authorization: `Bearer ${key}` };

    // Both instances accept it (and cache it).
    expect((await apiClient(t.url, auth).get('/v1/pets')).status).toBe(200);
    expect((await apiClient(other.url, auth).get('/v1/pets')).status).toBe(200);
    await t.app.get(ApiKeyAuthenticator).flushLastUsed();

    const listing = await adminApi().get('/admin/api-keys');
    expect(listing.status).toBe(200);
    const listed = listing.body.find((k: { id: number }) => k.id === id);
    expect(listed).toEqual({
      id,
      name: 'Acme',
      plan: 'enterprise',
      limits: { perMinute: 100, perDay: 1000, openOrders: 500, webhookEndpoints: 50 },
      scopes: ['pets:read', 'pets:write', 'orders:read', 'orders:write', 'applications:write'],
      organizationId: null,
      expiresAt: null,
      prefix: key.slice(0, 13),
      createdAt: issued.body.createdAt,
      revokedAt: null,
      lastUsedAt: expect.any(String),
      previousSecretValidUntil: null,
      bannedUntil: null,
    });
    expect(JSON.stringify(listing.body)).not.toContain(key.slice(13));

    expect((await adminApi().delete(`/admin/api-keys/${id}`)).status).toBe(204);
    expectError(await apiClient(t.url, auth).get('/v1/pets'), 401, 'unauthorized');

    const revokedAt = Date.now();
    let refusedAfter: number | undefined;
    while (Date.now() - revokedAt < 6000) {
      if ((await apiClient(other.url, auth).get('/v1/pets')).status === 401) {
        refusedAfter = Date.now() - revokedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(refusedAfter).toBeDefined();
    expect(refusedAfter).toBeLessThan(1000);
    expect(
      (await adminApi().get('/admin/api-keys')).body.find((k: { id: number }) => k.id === id)
        .revokedAt,
    ).toEqual(expect.any(String));
  });

  it('answers 404 to revoking an unknown or revoked key and 400 to a malformed id', async () => {
    expectError(await adminApi().delete('/admin/api-keys/999999'), 404, 'not_found');
    expectError(await adminApi().delete('/admin/api-keys/abc'), 400, 'validation_failed');
    expectError(await adminApi().delete('/admin/api-keys/999999/ban'), 404, 'not_found');
  });

  it('serves its own OpenAPI document', async () => {
    const response = await adminApi().get('/admin/openapi.json');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.paths).sort()).toEqual([
      '/admin/api-keys',
      '/admin/api-keys/{id}',
      '/admin/api-keys/{id}/ban',
      '/admin/organizations',
    ]);
  });
});

describe('secrets', () => {
  it('never reach a log line, a listing or an error message', async () => {
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) => {
      const original = stream.write.bind(stream);
      const spy = jest
        .spyOn(stream, 'write')
        .mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
          written.push(String(chunk));
          return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
        });
      return spy;
    };
    const spies = [capture(process.stdout), capture(process.stderr)];
    const t = await startTestApp({ ADMIN_TOKEN, LOG_LEVEL: 'verbose' });
    try {
      const issued = await apiClient(t.url, admin)
        .post('/admin/api-keys')
        .send({ name: 'secret', plan: 'free' });
      const key: string = issued.body.key;
      const secretPart = key.slice(13);
      const responses = [
        await apiClient(t.url, { authorization: `Bearer ${key}` }).get('/v1/pets'),
        await apiClient(t.url, { authorization: `Bearer ${key}x` }).get('/v1/pets'),
        await apiClient(t.url, { authorization: `Bearer ${key}` })
          .post('/v1/pets')
          .send({ bad: true }),
        await apiClient(t.url, admin).get('/admin/api-keys'),
        await apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}x` }).get('/admin/api-keys'),
      ];
      await t.app.get(ApiKeyAuthenticator).flushLastUsed();
      for (const response of responses) {
        expect(JSON.stringify(response.body)).not.toContain(secretPart);
        expect(JSON.stringify(response.body)).not.toContain(ADMIN_TOKEN);
      }
      const log = written.join('');
      expect(log.length).toBeGreaterThan(0);
      expect(log).not.toContain(secretPart);
      expect(log).not.toContain(ADMIN_TOKEN);
    } finally {
      await t.close();
      spies.forEach((spy) => spy.mockRestore());
    }
  });
});
