import { ApiKeys } from '@pet-adoption/api-keys';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

// Waits of a few seconds for the sweeper, on a loaded machine.
jest.setTimeout(60_000);

const ADMIN_TOKEN = 'fair-use-admin-token-0123456789abcdefghij';

/** Polls `probe` until it holds or `ms` pass; returns whether it held. */
async function eventually(probe: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Fair use of the animals (docs/api.md, "Fair use"; docs/adr/0022): caps and holds. */
describe('/v1/store: no key hoards the animals', () => {
  let a: TestApp;
  let b: TestApp;
  let shelter: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    // Two instances on one database; orders placed hold their pet for 2 s, swept every 200 ms.
    // 24 placements at once open up to 20 connections: on a loaded machine (CI on two cores)
    // one may take more than the default second to open, a 503 unrelated to the caps.
    const env = {
      ADMIN_TOKEN,
      ORDER_HOLD_SECONDS: '2',
      ORDER_SWEEP_INTERVAL_MS: '200',
      DATABASE_CONNECT_TIMEOUT_MS: '5000',
    };
    [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
    shelter = apiClient(
      a.url,
      (await a.issueKey({ scopes: ['orders:manage'], organizationId: '1' })).auth,
    );
  });
  beforeEach(() => resetDatabase(a.dataSource));
  afterAll(() => Promise.all([a.close(), b.close()]));

  const addPets = async (count: number) => {
    const pets = [];
    for (let i = 0; i < count; i++) {
      const created = await apiClient(a.url, a.auth)
        .post('/v1/pets')
        .send({ name: `Pet ${i}`, categoryId: 1 });
      pets.push(created.body.id as number);
    }
    return pets;
  };
  const petStatus = async (id: number) =>
    (await apiClient(a.url, a.auth).get(`/v1/pets/${id}`)).body.status as string;
  const order = async (id: number) =>
    (await shelter.get(`/v1/store/orders/${id}`)).body as Record<string, unknown>;

  it('lets one free key hold at most 5 open orders, even placing 24 at once across two instances', async () => {
    const pets = await addPets(24);
    const { auth } = await a.issueKey({ plan: 'free', limits: undefined });
    const responses = await Promise.all(
      pets.map((petId, i) =>
        apiClient([a, b][i % 2].url, auth)
          .post('/v1/store/orders')
          .send({ petId }),
      ),
    );
    const placed = responses.filter((r) => r.status === 201);
    expect(placed).toHaveLength(5);
    for (const refused of responses.filter((r) => r.status !== 201)) {
      expectError(refused, 409, 'open_order_limit');
      expect(refused.body.message).toContain('5');
    }
    const inventory = await apiClient(a.url, a.auth).get('/v1/store/inventory');
    expect(inventory.body).toMatchObject({ available: 19, pending: 5 });

    // A cancelled order frees its slot; an approved one still holds it.
    const [first, second] = placed.map((r) => r.body.id as number);
    const customer = apiClient(a.url, auth);
    await shelter.patch(`/v1/store/orders/${second}`).send({ status: 'approved' });
    const free = pets.find((petId) => !placed.some((r) => r.body.petId === petId))!;
    expectError(
      await customer.post('/v1/store/orders').send({ petId: free }),
      409,
      'open_order_limit',
    );
    await customer.patch(`/v1/store/orders/${first}`).send({ status: 'cancelled' });
    expect((await customer.post('/v1/store/orders').send({ petId: free })).status).toBe(201);
  });

  it('caps an enterprise key at its own limits.openOrders, set and shown by the admin API', async () => {
    const admin = apiClient(a.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const issued = await admin.post('/admin/api-keys').send({
      name: 'partner',
      plan: 'enterprise',
      limits: { perMinute: 1000, perDay: 10_000, openOrders: 2 },
    });
    expect(issued.status).toBe(201);
    expect(issued.body.limits).toEqual({
      perMinute: 1000,
      perDay: 10_000,
      openOrders: 2,
      webhookEndpoints: 50,
    });
    const listed = (await admin.get('/admin/api-keys')).body as { id: number; limits: object }[];
    expect(listed.find((k) => k.id === issued.body.id)!.limits).toEqual(issued.body.limits);
    const free = listed.find((k) => (k as { plan?: string }).plan === 'free');
    if (free) expect(free.limits).toMatchObject({ openOrders: 5 });

    const partner = apiClient(b.url, { authorization: `Bearer ${issued.body.key}` });
    const pets = await addPets(3);
    expect((await partner.post('/v1/store/orders').send({ petId: pets[0] })).status).toBe(201);
    expect((await partner.post('/v1/store/orders').send({ petId: pets[1] })).status).toBe(201);
    const refused = expectError(
      await partner.post('/v1/store/orders').send({ petId: pets[2] }),
      409,
      'open_order_limit',
    );
    expect(refused.body.message).toContain('2 open orders');
    expectError(
      await admin.post('/admin/api-keys').send({
        name: 'x',
        plan: 'free',
        limits: { perMinute: 1, perDay: 1, openOrders: 1 },
      }),
      400,
      'validation_failed',
    );
  });

  it('cancels a placed order past its hold as expired, freeing the pet; an approved one keeps it', async () => {
    const [kept, lapsed] = await addPets(2);
    const customer = apiClient(b.url, (await b.issueKey()).auth);
    const placed = (await customer.post('/v1/store/orders').send({ petId: lapsed })).body;
    expect(Date.parse(placed.expiresAt) - Date.parse(placed.placedAt)).toBe(2000);
    expect(placed.cancelReason).toBeNull();
    const approved = (await customer.post('/v1/store/orders').send({ petId: kept })).body;
    const moved = await shelter
      .patch(`/v1/store/orders/${approved.id}`)
      .send({ status: 'approved' });
    expect(moved.body).toMatchObject({ status: 'approved', expiresAt: null, cancelReason: null });

    expect(await eventually(async () => (await order(placed.id)).status === 'cancelled')).toBe(
      true,
    );
    expect(await order(placed.id)).toMatchObject({ cancelReason: 'expired', expiresAt: null });
    expect(await petStatus(lapsed)).toBe('available');
    expect(await order(approved.id)).toMatchObject({ status: 'approved' });
    expect(await petStatus(kept)).toBe('pending');
    // Cancelled once: one row, one cancellation, whichever instance swept it.
    const rows = await a.dataSource.query(
      `SELECT count(*)::int AS n FROM orders WHERE status = 'cancelled'`,
    );
    expect(rows[0].n).toBe(1);
  });

  it("cancels a revoked key's placed orders as key_revoked; a client's own cancellation is requested", async () => {
    const [held, own] = await addPets(2);
    const issued = await b.issueKey();
    const customer = apiClient(b.url, issued.auth);
    const doomed = (await customer.post('/v1/store/orders').send({ petId: held })).body;
    const mine = (await customer.post('/v1/store/orders').send({ petId: own })).body;
    const cancelled = await customer
      .patch(`/v1/store/orders/${mine.id}`)
      .send({ status: 'cancelled' });
    expect(cancelled.body).toMatchObject({ cancelReason: 'requested', expiresAt: null });

    await a.app.get(ApiKeys).revoke(issued.id);
    expect(
      await eventually(async () => (await order(doomed.id)).cancelReason === 'key_revoked', 1500),
    ).toBe(true);
    expect(await petStatus(held)).toBe('available');
  });
});
