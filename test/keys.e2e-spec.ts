import { randomUUID } from 'node:crypto';
import { apiClient, expectError } from './support/http';
import { addPet } from './support/pets';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';
import { redisKeyPrefix } from './support/confinement';

jest.setTimeout(60_000);

const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';
const STAFF = ['pets:read', 'pets:write', 'pets:manage', 'orders:read', 'organization:manage'];

type Api = ReturnType<typeof apiClient>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * An organisation runs its own keys (docs/api.md, "An organisation's own keys"), on two instances
 * sharing the database and Redis as production does: issued, rolled, expired and revoked keys are
 * known on both at once.
 */
describe('/v1/keys on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let organizationId: number;
  let manager: { id: number; key: string };
  let onA: Api;
  let onB: Api;

  beforeAll(async () => {
    const prefix = `${redisKeyPrefix()}keys:${randomUUID()}:`;
    const env = { ADMIN_TOKEN, REDIS_KEY_PREFIX: prefix, ORDER_SWEEP_INTERVAL_MS: '200' };
    a = await startTestApp(env);
    b = await startTestApp(env);
    const admin = apiClient(a.url, bearer(ADMIN_TOKEN));
    organizationId = (
      await admin.post('/admin/organizations').send({
        name: `Keys Shelter ${randomUUID().slice(0, 8)}`,
        email: 'keys@shelter.example',
        address: { city: 'York', country: 'GB' },
      })
    ).body.id;
    manager = (
      await admin
        .post('/admin/api-keys')
        .send({ name: 'manager', plan: 'pro', scopes: STAFF, organizationId })
    ).body;
    onA = apiClient(a.url, bearer(manager.key));
    onB = apiClient(b.url, bearer(manager.key));
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  /** Issues a key through the API, on instance A. */
  const issue = async (body: Record<string, unknown>) => {
    const response = await onA
      .post('/v1/keys')
      .send({ name: 'desk', scopes: ['pets:read'], ...body });
    expect(response.status).toBe(201);
    return response.body as { id: number; key: string; prefix: string; expiresAt: string | null };
  };

  /** Polls `check` every 20 ms until it holds; how long that took, in ms. */
  const within = async (check: () => Promise<boolean>, limitMs: number) => {
    const start = Date.now();
    while (!(await check())) {
      if (Date.now() - start > limitMs + 2000) throw new Error(`Still not so after ${limitMs} ms.`);
      await sleep(20);
    }
    return Date.now() - start;
  };

  it("issues a key of the organisation, on the issuer's plan, with scopes the issuer holds, shown once, working on every instance at once", async () => {
    const response = await onA
      .post('/v1/keys')
      .send({ name: 'Front desk', scopes: ['pets:read', 'pets:manage'] });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'Front desk',
      plan: 'pro',
      limits: { perMinute: 300, perDay: 10_000, openOrders: 50, webhookEndpoints: 10 },
      scopes: ['pets:read', 'pets:manage'],
      organizationId,
      prefix: response.body.key.slice(0, 13),
      expiresAt: null,
      previousSecretValidUntil: null,
      createdAt: expect.any(String),
      revokedAt: null,
      lastUsedAt: null,
      key: expect.stringMatching(/^pet_test_[A-Za-z0-9_-]{43}$/),
    });
    expect(response.headers['x-api-stability']).toBe('beta');
    expect((await apiClient(b.url, bearer(response.body.key)).get('/v1/pets')).status).toBe(200);
    const listed = (await onB.get('/v1/keys')).body as { id: number }[];
    expect(listed.map((k) => k.id)).toEqual(expect.arrayContaining([manager.id, response.body.id]));
    expect(JSON.stringify(listed)).not.toContain(response.body.key.slice(13));
  });

  it('never hands on a scope the issuer lacks (403), and needs organization:manage and an organisation', async () => {
    const beyond = expectError(
      await onA.post('/v1/keys').send({ name: 'x', scopes: ['pets:read', 'orders:manage'] }),
      403,
      'forbidden',
    );
    expect(beyond.body.message).toContain('orders:manage');
    const desk = await issue({ scopes: ['pets:read'] });
    expectError(
      await apiClient(a.url, bearer(desk.key))
        .post('/v1/keys')
        .send({ name: 'x', scopes: ['pets:read'] }),
      403,
      'forbidden',
    );
    const loner = apiClient(
      a.url,
      (await a.issueKey({ scopes: ['pets:read', 'organization:manage'] })).auth,
    );
    expectError(await loner.get('/v1/keys'), 403, 'forbidden');
  });

  it.each([
    ['an empty name', { name: ' ' }],
    ['no scopes', { scopes: [] }],
    ['an unknown scope', { scopes: ['pets:fly'] }],
    ['an expiry in the past', { expiresAt: '2020-01-01T00:00:00Z' }],
    ['an expiry more than two years away', { expiresAt: '2099-01-01T00:00:00Z' }],
    ['an expiry on 30 February', { expiresAt: '2027-02-30T00:00:00Z' }],
    ['an expiry at hour 24', { expiresAt: '2027-01-01T24:00:00Z' }],
  ])('refuses to issue a key with %s (400), issuing nothing', async (_, body) => {
    const before = (await onA.get('/v1/keys')).body.length;
    expectError(
      await onA.post('/v1/keys').send({ name: 'x', scopes: ['pets:read'], ...body }),
      400,
      'validation_failed',
    );
    expect((await onA.get('/v1/keys')).body).toHaveLength(before);
  });

  it('tells any key about itself and its budget, without counting the asking', async () => {
    await awayFromMinuteEnd();
    const desk = await issue({ scopes: ['pets:read'] });
    const api = apiClient(b.url, bearer(desk.key));
    await api.get('/v1/pets');
    const first = await api.get('/v1/keys/self');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: desk.id,
      name: 'desk',
      plan: 'pro',
      limits: { perMinute: 300, perDay: 10_000, openOrders: 50, webhookEndpoints: 10 },
      scopes: ['pets:read'],
      organizationId,
      expiresAt: null,
      usage: {
        minute: { limit: 300, remaining: 299, reset: expect.any(Number) },
        day: { limit: 10_000, remaining: 9_999, reset: expect.any(Number) },
      },
    });
    expect(first.headers['x-ratelimit-remaining']).toBe('299');
    for (let i = 0; i < 3; i++) {
      expect(
        (await apiClient(a.url, bearer(desk.key)).get('/v1/keys/self')).body.usage.minute.remaining,
      ).toBe(299);
    }
    expect((await api.get('/v1/pets')).headers['x-ratelimit-remaining']).toBe('298');
    const refused = expectError(
      await apiClient(a.url, bearer('pet_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).get(
        '/v1/keys/self',
      ),
      401,
      'unauthorized',
    );
    // A guess pays from its address, as on every route: asking about oneself is no free way in.
    expect(refused.headers['x-ratelimit-limit']).toBe(
      String(a.config.rateLimit.anonymous.perMinute),
    );
  });

  it('refuses a key from its expiresAt on, on every instance within 1 s, as expired, and cancels its placed orders', async () => {
    const expiresAt = new Date(Date.now() + 3000);
    const buyer = await onA
      .post('/v1/keys')
      .send({ name: 'buyer', scopes: ['pets:read'], expiresAt: expiresAt.toISOString() });
    expect(buyer.body.expiresAt).toBe(expiresAt.toISOString());
    // A key that may order: issued by the operator, as organisations' keys manage, not buy.
    const admin = apiClient(a.url, bearer(ADMIN_TOKEN));
    const adopter = (
      await admin.post('/admin/api-keys').send({
        name: 'adopter',
        plan: 'free',
        expiresAt: expiresAt.toISOString(),
      })
    ).body as { key: string };
    const pet = await addPet(onA);
    const order = (
      await apiClient(b.url, bearer(adopter.key)).post('/v1/store/orders').send({ petId: pet.id })
    ).body;
    expect(order.status).toBe('placed');
    for (const instance of [a, b]) {
      expect((await apiClient(instance.url, bearer(buyer.body.key)).get('/v1/pets')).status).toBe(
        200,
      );
    }
    await sleep(Math.max(0, expiresAt.getTime() - Date.now()));
    for (const instance of [a, b]) {
      const took = await within(
        async () =>
          (await apiClient(instance.url, bearer(buyer.body.key)).get('/v1/pets')).status === 401,
        1000,
      );
      expect(took).toBeLessThan(1000);
      const refused = await apiClient(instance.url, bearer(buyer.body.key)).get('/v1/pets');
      expect(refused.body.message).toMatch(/expired/);
    }
    await within(
      async () => (await onA.get(`/v1/pets/${pet.id}`)).body.status === 'available',
      5000,
    );
    const manager = apiClient(a.url, a.auth);
    expect(manager).toBeDefined();
  });

  it('revokes a key of the organisation: refused on every instance within 1 s, itself included', async () => {
    const desk = await issue({ scopes: ['pets:read'] });
    for (const instance of [a, b]) {
      expect((await apiClient(instance.url, bearer(desk.key)).get('/v1/pets')).status).toBe(200);
    }
    expect((await onA.delete(`/v1/keys/${desk.id}`)).status).toBe(204);
    const revokedAt = Date.now();
    for (const instance of [a, b]) {
      await within(
        async () =>
          (await apiClient(instance.url, bearer(desk.key)).get('/v1/pets')).status === 401,
        1000,
      );
    }
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expectError(await onB.delete(`/v1/keys/${desk.id}`), 404, 'not_found');
    expect(
      ((await onA.get('/v1/keys')).body as { id: number; revokedAt: string }[]).find(
        (k) => k.id === desk.id,
      )!.revokedAt,
    ).toEqual(expect.any(String));
  });

  describe('a roll under traffic', () => {
    it('never refuses the new secret on either instance, and refuses the old one on both within 1 s of the overlap', async () => {
      const desk = await issue({ scopes: ['pets:read'] });
      let stop = false;
      const refusedNew: number[] = [];
      const servedNew = new Map<TestApp, number>();
      /** The roll's answer, once there is one: the traffic moves to its secret then. */
      const roll: { answer?: { key: string; previousSecretValidUntil: string } } = {};
      /**
       * A page as a client asks for it: a 503 is the service asking to be asked again (Retry-After:
       * the embedded engine in CI once kept two requests past the pool's wait), so it is sent
       * again, at most three times; any other answer, a refusal of the secret above all, is final.
       */
      const page = async (instance: TestApp, secret: string) => {
        for (let attempt = 1; ; attempt++) {
          const { status } = await apiClient(instance.url, bearer(secret)).get('/v1/pets?limit=1');
          if (status !== 503 || attempt === 3) return status;
          await sleep(100);
        }
      };
      // Traffic with the old secret on both instances, then with the new one from the moment
      // the roll answers it.
      const traffic = [a, b].map(async (instance) => {
        while (!stop) {
          const secret = roll.answer?.key;
          if (secret) {
            const status = await page(instance, secret);
            if (status === 200) servedNew.set(instance, (servedNew.get(instance) ?? 0) + 1);
            else refusedNew.push(status);
          } else {
            await apiClient(instance.url, bearer(desk.key)).get('/v1/pets?limit=1');
          }
          // Paced: within the key's plan (pro, 300 a minute) on a fast machine too, so that a
          // refusal can only be the roll's.
          await sleep(50);
        }
      });
      await sleep(300);
      const rolled = await onB.post(`/v1/keys/${desk.id}/roll`).send({ overlapSeconds: 2 });
      expect(rolled.status).toBe(200);
      expect(rolled.body.key).not.toBe(desk.key);
      expect(rolled.body.prefix).toBe(rolled.body.key.slice(0, 13));
      roll.answer = rolled.body;
      const end = Date.parse(rolled.body.previousSecretValidUntil);
      expect(end - Date.now()).toBeGreaterThan(1000);
      for (const instance of [a, b]) {
        expect((await apiClient(instance.url, bearer(desk.key)).get('/v1/pets')).status).toBe(200);
      }
      await sleep(Math.max(0, end - Date.now()));
      for (const instance of [a, b]) {
        const took = await within(
          async () =>
            (await apiClient(instance.url, bearer(desk.key)).get('/v1/pets')).status === 401,
          1000,
        );
        expect(took).toBeLessThan(1000);
      }
      await sleep(300);
      stop = true;
      await Promise.all(traffic);
      expect(refusedNew).toEqual([]);
      expect(servedNew.get(a)).toBeGreaterThan(0);
      expect(servedNew.get(b)).toBeGreaterThan(0);
      const refused = await apiClient(a.url, bearer(desk.key)).get('/v1/pets');
      expect(refused.body.message).toMatch(/replaced by a roll/);
    });

    it('refuses the old secret at once with no overlap, and a roll of a bad overlap (400)', async () => {
      const desk = await issue({ scopes: ['pets:read'] });
      for (const overlapSeconds of [-1, 604_801, 1.5, '5']) {
        expectError(
          await onA.post(`/v1/keys/${desk.id}/roll`).send({ overlapSeconds }),
          400,
          'validation_failed',
        );
      }
      const roll = await onA.post(`/v1/keys/${desk.id}/roll`).send({ overlapSeconds: 0 });
      for (const instance of [a, b]) {
        await within(
          async () =>
            (await apiClient(instance.url, bearer(desk.key)).get('/v1/pets')).status === 401,
          1000,
        );
        expect((await apiClient(instance.url, bearer(roll.body.key)).get('/v1/pets')).status).toBe(
          200,
        );
      }
    });
  });
});

describe('a key issued on one instance, used at once on another from an address that is limited', () => {
  it('is never refused for its address’s anonymous traffic', async () => {
    const prefix = `${redisKeyPrefix()}keys-known:${randomUUID()}:`;
    const env = { ADMIN_TOKEN, REDIS_KEY_PREFIX: prefix, ANONYMOUS_PER_MINUTE: '3' };
    const a = await startTestApp(env);
    const b = await startTestApp(env);
    try {
      // One minute window from here on, not from before the two start-ups, which a loaded
      // machine can make outlast the wait.
      await awayFromMinuteEnd(10);
      // Spend the address's anonymous budget on B with made-up keys, until it is limited.
      for (let i = 0; i < 5; i++) {
        await apiClient(b.url, bearer(`pet_test_${'B'.repeat(42)}${i}`)).get('/v1/pets');
      }
      expect((await apiClient(b.url).get('/v1/pets')).status).toBe(429);
      for (let round = 0; round < 5; round++) {
        const { key } = await a.issueKey({ plan: 'free', limits: undefined });
        expect((await apiClient(b.url, bearer(key)).get('/v1/pets')).status).toBe(200);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
