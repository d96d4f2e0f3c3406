import { FreshDatabase, freshDatabase } from './support/fresh-database';
import { apiClient, errorBody } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

// A run on the embedded engine starts a PostgreSQL server for this file.
jest.setTimeout(60_000);

/**
 * What many clients do at once, on two instances of the service sharing one database: the rules
 * of the lifecycle hold by the database's own guarantees, not by any one process's care.
 */
describe('orders under concurrency, across two instances', () => {
  let database: FreshDatabase;
  let one: TestApp;
  let two: TestApp;
  let shelter: Record<string, string>;
  const customers: Record<string, string>[] = [];

  beforeAll(async () => {
    // Two instances with pools of their own need a real server: the embedded engine serves one
    // session (a run on it gets a throw-away server here).
    database = await freshDatabase();
    const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '10' };
    one = await startTestApp(env);
    two = await startTestApp(env);
    shelter = (
      await one.issueKey({ scopes: ['orders:read', 'orders:manage'], organizationId: '1' })
    ).auth;
    for (let i = 0; i < 24; i += 1) customers.push((await one.issueKey()).auth);
  });
  beforeEach(() => resetDatabase(one.dataSource));
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  const instance = (i: number) => (i % 2 === 0 ? one : two);
  const addPet = async () =>
    (await apiClient(one.url, one.auth).post('/v1/pets').send({ name: 'Rex', categoryId: 1 })).body
      .id as number;
  const petStatus = async (id: number) =>
    (await one.dataSource.query('SELECT status FROM pets WHERE id = $1', [id]))[0].status;
  /** A new pet, and an order for it placed by `owner`. */
  const placedOrder = async (owner: Record<string, string>) => {
    const petId = await addPet();
    const response = await apiClient(one.url, owner).post('/v1/store/orders').send({ petId });
    expect(response.status).toBe(201);
    return { petId, id: response.body.id as number };
  };
  const inventory = async () =>
    (await apiClient(two.url, one.auth).get('/v1/store/inventory')).body;

  it('lets exactly one of 24 simultaneous orders for one pet through; the rest are 409', async () => {
    const petId = await addPet();
    const responses = await Promise.all(
      customers.map((auth, i) =>
        apiClient(instance(i).url, auth).post('/v1/store/orders').send({ petId }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(23).fill(409)]);
    for (const refused of responses.filter((r) => r.status === 409)) {
      expect(refused.body).toEqual({
        ...errorBody(refused, 'pet_not_available', 409),
        message: `Pet ${petId} is pending, not available: it cannot be ordered.`,
      });
    }
    const rows = await one.dataSource.query('SELECT status FROM orders WHERE pet_id = $1', [petId]);
    expect(rows).toEqual([{ status: 'placed' }]);
    expect(await petStatus(petId)).toBe('pending');
    expect(await inventory()).toEqual({ available: 0, pending: 1, sold: 0 });
  });

  it('settles simultaneous approve and cancel of one order consistently, every time', async () => {
    for (let round = 0; round < 10; round += 1) {
      const owner = customers[round];
      const { petId, id } = await placedOrder(owner);
      const [approve, cancel] = await Promise.all([
        apiClient(one.url, shelter).patch(`/v1/store/orders/${id}`).send({ status: 'approved' }),
        apiClient(two.url, owner).patch(`/v1/store/orders/${id}`).send({ status: 'cancelled' }),
      ]);
      const [order] = await one.dataSource.query('SELECT status FROM orders WHERE id = $1', [id]);
      // Cancel first: approving a cancelled order is refused. Approve first: cancelling it is allowed.
      if (approve.status === 409) {
        expect(approve.body.code).toBe('invalid_transition');
        expect(cancel.status).toBe(200);
      } else {
        expect([approve.status, cancel.status]).toEqual([200, 200]);
      }
      expect(order.status).toBe('cancelled');
      expect(await petStatus(petId)).toBe('available');
    }
  });

  it('settles simultaneous deliver and cancel of one approved order: the pet follows the winner', async () => {
    for (let round = 0; round < 10; round += 1) {
      const owner = customers[round];
      const { petId, id } = await placedOrder(owner);
      await apiClient(one.url, shelter)
        .patch(`/v1/store/orders/${id}`)
        .send({ status: 'approved' })
        .expect(200);
      const answers = await Promise.all([
        apiClient(one.url, shelter).patch(`/v1/store/orders/${id}`).send({ status: 'delivered' }),
        apiClient(two.url, owner).patch(`/v1/store/orders/${id}`).send({ status: 'cancelled' }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!.body.status;
      const [order] = await one.dataSource.query('SELECT status FROM orders WHERE id = $1', [id]);
      expect(order.status).toBe(winner);
      expect(await petStatus(petId)).toBe(winner === 'delivered' ? 'sold' : 'available');
    }
  });

  it('keeps the inventory exact through concurrent creates, orders and cancellations', async () => {
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        apiClient(instance(i).url, one.auth)
          .post('/v1/pets')
          .send({ name: `Pet ${i}`, categoryId: 1, status: i % 5 === 0 ? 'sold' : 'available' }),
      ),
    );
    const available = created.filter((r) => r.body.status === 'available').map((r) => r.body.id);
    const placed = await Promise.all(
      available
        .slice(0, 20)
        .map((petId, i) =>
          apiClient(instance(i).url, customers[i]).post('/v1/store/orders').send({ petId }),
        ),
    );
    await Promise.all(
      placed.slice(0, 10).map((order, i) =>
        apiClient(instance(i + 1).url, customers[i])
          .patch(`/v1/store/orders/${order.body.id}`)
          .send({ status: 'cancelled' }),
      ),
    );
    const counted = await one.dataSource.query(
      'SELECT status, count(*)::int AS n FROM pets GROUP BY status',
    );
    const expected = {
      available: 0,
      pending: 0,
      sold: 0,
      ...Object.fromEntries(counted.map((r: { status: string; n: number }) => [r.status, r.n])),
    };
    expect(expected).toEqual({ available: 22, pending: 10, sold: 8 });
    expect(await inventory()).toEqual(expected);
  });
});
