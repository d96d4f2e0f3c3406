import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/** Every rule of orders and the pet lifecycle, one operation at a time (docs/api.md, "Orders"). */
describe('/v1/store: orders and the pet lifecycle', () => {
  let t: TestApp;
  /** A key with the default scopes: a customer. */
  let customer: ReturnType<typeof apiClient>;
  /** Another customer, whose orders the first must never see. */
  let neighbour: ReturnType<typeof apiClient>;
  /** The shelter: organisation 1's staff, whose pets all these are (docs/adr/0040). */
  let shelter: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: 'https://pets.example/v1' });
    customer = apiClient(t.url, (await t.issueKey()).auth);
    neighbour = apiClient(t.url, (await t.issueKey()).auth);
    shelter = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['orders:manage'], organizationId: '1' })).auth,
    );
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const addPet = async (status = 'available') =>
    (await customer.post('/v1/pets').send({ name: 'Rex', categoryId: 1, status })).body
      .id as number;
  const petStatus = async (id: number) =>
    (await customer.get(`/v1/pets/${id}`)).body.status as string;
  const place = (petId: unknown, client = customer) =>
    client.post('/v1/store/orders').send({ petId });
  const moveTo = (orderId: number, status: string, client = shelter) =>
    client.patch(`/v1/store/orders/${orderId}`).send({ status });
  const orderRows = async () =>
    Number((await t.dataSource.query('SELECT count(*) FROM orders'))[0].count);

  describe('placeOrder', () => {
    it('answers 201 with the order and its Location, and makes the pet pending', async () => {
      const petId = await addPet();
      const response = await place(petId);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: 1,
        petId,
        status: 'placed',
        placedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: response.body.placedAt,
        // The default hold: three days.
        expiresAt: new Date(Date.parse(response.body.placedAt) + 259_200_000).toISOString(),
        cancelReason: null,
      });
      expect(response.headers.location).toBe('https://pets.example/v1/store/orders/1');
      expect(response.headers['x-api-stability']).toBe('beta');
      expect(await petStatus(petId)).toBe('pending');
    });

    it.each(['pending', 'sold'])('refuses a %s pet with 409 naming its status', async (status) => {
      const petId = await addPet(status);
      const response = expectError(await place(petId), 409, 'pet_not_available');
      expect(response.body.message).toContain(status);
      expect(await orderRows()).toBe(0);
    });

    it('refuses a pet that is already ordered, and a pet that does not exist (404)', async () => {
      const petId = await addPet();
      await place(petId).expect(201);
      expectError(await place(petId, neighbour), 409, 'pet_not_available');
      expectError(await place(petId + 1000), 404, 'not_found');
      expect(await orderRows()).toBe(1);
    });

    it.each([
      ['a missing petId', {}],
      ['a string', { petId: '1' }],
      ['a fraction', { petId: 1.5 }],
      ['zero', { petId: 0 }],
      ['null', { petId: null }],
      ['an id beyond 2^53 - 1', { petId: 9007199254740992 }],
      ['another property', { petId: 1, status: 'placed' }],
      ['an array', [1]],
    ])('refuses %s with 400 and stores nothing', async (_, body) => {
      await addPet();
      expectError(await customer.post('/v1/store/orders').send(body), 400, 'validation_failed');
      expect(await orderRows()).toBe(0);
      expect(await petStatus(1)).toBe('available');
    });

    it('replays a retry with the same Idempotency-Key, and refuses the key with another body', async () => {
      const [first, second] = [await addPet(), await addPet()];
      const send = (petId: number) =>
        customer.post('/v1/store/orders').set('idempotency-key', 'adopt-1').send({ petId });
      const original = await send(first).expect(201);
      const retry = await send(first).expect(201);
      expect(retry.body).toEqual(original.body);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.headers.location).toBe(original.headers.location);
      expectError(await send(second), 422, 'idempotency_key_reused');
      expect(await orderRows()).toBe(1);
      expect(await petStatus(second)).toBe('available');
    });

    it('replays concurrent retries of one placement: one order, the rest replays', async () => {
      const petId = await addPet();
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          customer.post('/v1/store/orders').set('idempotency-key', 'burst').send({ petId }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
      expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
      expect(await orderRows()).toBe(1);
    });
  });

  describe('updateOrder', () => {
    it('walks placed → approved → delivered: the pet is sold', async () => {
      const petId = await addPet();
      const { id } = (await place(petId)).body;
      const approved = await moveTo(id, 'approved').expect(200);
      expect(approved.body).toMatchObject({ id, petId, status: 'approved' });
      expect(await petStatus(petId)).toBe('pending');
      const delivered = await moveTo(id, 'delivered').expect(200);
      expect(delivered.body.status).toBe('delivered');
      expect(Date.parse(delivered.body.updatedAt)).toBeGreaterThanOrEqual(
        Date.parse(delivered.body.placedAt),
      );
      expect(await petStatus(petId)).toBe('sold');
      expectError(await place(petId), 409, 'pet_not_available');
    });

    it.each(['placed', 'approved'])(
      'cancels a %s order: the pet is available again, and can be ordered anew',
      async (status) => {
        const petId = await addPet();
        const { id } = (await place(petId)).body;
        if (status === 'approved') await moveTo(id, 'approved').expect(200);
        const cancelled = await moveTo(id, 'cancelled', customer).expect(200);
        expect(cancelled.body.status).toBe('cancelled');
        expect(await petStatus(petId)).toBe('available');
        expect((await place(petId, neighbour)).status).toBe(201);
      },
    );

    it.each([
      ['placed', 'delivered'],
      ['delivered', 'cancelled'],
      ['delivered', 'approved'],
      ['cancelled', 'approved'],
      ['cancelled', 'cancelled'],
      ['approved', 'approved'],
    ])('refuses %s → %s with 409 naming both, changing nothing', async (from, to) => {
      const petId = await addPet();
      const { id } = (await place(petId)).body;
      const path = { placed: [], approved: ['approved'], delivered: ['approved', 'delivered'] };
      for (const step of path[from as keyof typeof path] ?? ['cancelled']) {
        await moveTo(id, step).expect(200);
      }
      const petBefore = await petStatus(petId);
      const response = expectError(await moveTo(id, to), 409, 'invalid_transition');
      expect(response.body.message).toBe(`Order ${id} is ${from}: it cannot become ${to}.`);
      expect((await shelter.get(`/v1/store/orders/${id}`)).body.status).toBe(from);
      expect(await petStatus(petId)).toBe(petBefore);
    });

    it.each([
      ['the target placed', { status: 'placed' }],
      ['an unknown status', { status: 'adopted' }],
      ['a missing status', {}],
      ['another property', { status: 'cancelled', petId: 2 }],
      ['null', { status: null }],
    ])('refuses %s with 400', async (_, body) => {
      const { id } = (await place(await addPet())).body;
      expectError(
        await shelter.patch(`/v1/store/orders/${id}`).send(body),
        400,
        'validation_failed',
      );
      expect((await shelter.get(`/v1/store/orders/${id}`)).body.status).toBe('placed');
    });

    it('takes application/merge-patch+json as well as application/json; nothing else', async () => {
      const { id } = (await place(await addPet())).body;
      const send = (type: string, status: string) =>
        shelter
          .patch(`/v1/store/orders/${id}`)
          .set('content-type', type)
          .send(JSON.stringify({ status }));
      expect((await send('application/merge-patch+json', 'approved')).status).toBe(200);
      expectError(await send('text/plain', 'delivered'), 415, 'unsupported_media_type');
      expect((await send('application/json; charset=utf-8', 'delivered')).status).toBe(200);
      // Only where the operation says so: a create stays application/json.
      expectError(
        await customer
          .post('/v1/pets')
          .set('content-type', 'application/merge-patch+json')
          .send(JSON.stringify({ name: 'Rex', categoryId: 1 })),
        415,
        'unsupported_media_type',
      );
    });

    it('answers 404 for an order that does not exist, and for ids beyond any order', async () => {
      expectError(await moveTo(12345, 'cancelled'), 404, 'not_found');
      const huge = expectError(
        await shelter.patch('/v1/store/orders/9223372036854775807').send({ status: 'cancelled' }),
        404,
        'not_found',
      );
      expect(huge.body.message).toContain('No order with id');
      expectError(
        await shelter.patch('/v1/store/orders/abc').send({ status: 'cancelled' }),
        400,
        'validation_failed',
      );
    });
  });

  describe('ownership', () => {
    it("keeps another key's order invisible: get, update and list", async () => {
      const petId = await addPet();
      const { id } = (await place(petId)).body;
      const notFound = expectError(await neighbour.get(`/v1/store/orders/${id}`), 404, 'not_found');
      const missing = expectError(await neighbour.get('/v1/store/orders/999'), 404, 'not_found');
      expect(notFound.body.message).toBe(`No order with id ${id}.`);
      expect(missing.body.message).toBe('No order with id 999.');
      expectError(await moveTo(id, 'cancelled', neighbour), 404, 'not_found');
      expect((await neighbour.get('/v1/store/orders')).body).toEqual([]);
      expect((await neighbour.get(`/v1/store/orders?petId=${petId}`)).body).toEqual([]);
      expect(await petStatus(petId)).toBe('pending');
      expect((await customer.get(`/v1/store/orders/${id}`)).body.id).toBe(id);
    });

    it("lets orders:manage of the pets' organisation see and change every key's orders for them", async () => {
      const mine = (await place(await addPet())).body.id;
      const theirs = (await place(await addPet(), neighbour)).body.id;
      const all = await shelter.get('/v1/store/orders').expect(200);
      expect(all.body.map((o: { id: number }) => o.id)).toEqual([mine, theirs]);
      expect(
        (await customer.get('/v1/store/orders')).body.map((o: { id: number }) => o.id),
      ).toEqual([mine]);
      await moveTo(theirs, 'cancelled').expect(200);
    });
  });

  describe('listOrders', () => {
    it('pages in ascending id with a next link carrying the filters, until the last page', async () => {
      const pets = [await addPet(), await addPet(), await addPet()];
      for (const petId of pets) await place(petId).expect(201);
      await moveTo(2, 'cancelled').expect(200);
      const first = await customer.get('/v1/store/orders?limit=1&status=placed').expect(200);
      expect(first.body.map((o: { id: number }) => o.id)).toEqual([1]);
      expect(first.headers.link).toBe(
        '<https://pets.example/v1/store/orders?limit=1&status=placed&after=1>; rel="next"',
      );
      const second = await customer.get('/v1/store/orders?limit=1&status=placed&after=1');
      expect(second.body.map((o: { id: number }) => o.id)).toEqual([3]);
      expect(second.headers.link).toBeUndefined();
      const ofPet = await customer.get(`/v1/store/orders?petId=${pets[1]}`);
      expect(ofPet.body).toMatchObject([{ id: 2, status: 'cancelled' }]);
      expect((await customer.get('/v1/store/orders?after=9223372036854775807')).body).toEqual([]);
    });

    it.each([
      'limit=0',
      'limit=101',
      'limit=1.5',
      'status=sold',
      'petId=0',
      'petId=abc',
      'after=-1',
      'after=1&after=2',
      'color=red',
    ])('refuses ?%s with 400', async (query) => {
      expectError(await customer.get(`/v1/store/orders?${query}`), 400, 'validation_failed');
    });
  });

  describe('getInventory', () => {
    it('counts the pets by status, exactly, after a mixed sequence', async () => {
      const ids = [];
      for (let i = 0; i < 6; i += 1) ids.push(await addPet());
      await addPet('sold');
      await addPet('pending');
      const orders = [];
      for (const petId of ids.slice(0, 4)) orders.push((await place(petId)).body.id);
      await moveTo(orders[0], 'approved');
      await moveTo(orders[0], 'delivered');
      await moveTo(orders[1], 'cancelled');
      await moveTo(orders[2], 'approved');
      const inventory = await customer.get('/v1/store/inventory').expect(200);
      expect(inventory.headers['x-api-stability']).toBe('beta');
      expect(inventory.body).toEqual({ available: 3, pending: 3, sold: 2 });
      const counted = await t.dataSource.query(
        'SELECT status, count(*)::int AS n FROM pets GROUP BY status ORDER BY status',
      );
      expect(
        Object.fromEntries(counted.map((r: { status: string; n: number }) => [r.status, r.n])),
      ).toEqual(inventory.body);
    });

    it('answers zeros on an empty store', async () => {
      expect((await customer.get('/v1/store/inventory')).body).toEqual({
        available: 0,
        pending: 0,
        sold: 0,
      });
    });
  });

  it('carries X-API-Stability: beta on every answer of the five operations, errors included', async () => {
    const answers = await Promise.all([
      customer.post('/v1/store/orders').send({}),
      customer.get('/v1/store/orders?limit=0'),
      customer.get('/v1/store/orders/999'),
      customer.patch('/v1/store/orders/999').send({ status: 'cancelled' }),
      apiClient(t.url).get('/v1/store/inventory'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([400, 400, 404, 404, 401]);
    for (const answer of answers) expect(answer.headers['x-api-stability']).toBe('beta');
  });
});
