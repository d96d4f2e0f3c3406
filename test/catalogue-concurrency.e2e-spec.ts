import { FreshDatabase, freshDatabase } from './support/fresh-database';
import { apiClient } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

// A run on the embedded engine starts a PostgreSQL server for this file.
jest.setTimeout(120_000);

/**
 * Changes of the catalogue racing each other and the store, on two instances sharing one
 * database: lost updates and pets deleted under an open order are ruled out by the database's own
 * guarantees (a compare-and-set in the statement, a row lock), not by any process's care.
 */
describe('the catalogue under concurrency, across two instances', () => {
  let database: FreshDatabase;
  let one: TestApp;
  let two: TestApp;
  const ROUNDS = 12;

  beforeAll(async () => {
    database = await freshDatabase();
    const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '10' };
    one = await startTestApp(env);
    two = await startTestApp(env);
  });
  beforeEach(() => resetDatabase(one.dataSource));
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  const instance = (i: number) => apiClient((i % 2 === 0 ? one : two).url, one.auth);
  const addPet = async () =>
    (await instance(0).post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201)).body
      .id as number;
  const row = async (id: number) =>
    (
      await one.dataSource.query(
        `SELECT status, version, deleted_at IS NOT NULL AS deleted,
                (SELECT count(*)::int FROM orders WHERE pet_id = $1) AS orders
           FROM pets WHERE id = $1`,
        [id],
      )
    )[0];
  const inventory = async () => (await instance(1).get('/v1/store/inventory')).body;

  it('lets exactly one of 8 updates sent with the same ETag through; the 7 others are 412', async () => {
    for (let round = 0; round < ROUNDS / 2; round += 1) {
      const id = await addPet();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          instance(i)
            .patch(`/v1/pets/${id}`)
            .set('if-match', '"1"')
            .send({ name: `Editor ${i}` }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(7).fill(412)]);
      const winner = answers.find((a) => a.status === 200)!;
      for (const loser of answers.filter((a) => a.status === 412)) {
        expect(loser.body.code).toBe('precondition_failed');
      }
      // The winner's change is the one kept: no later write overwrote it.
      expect((await instance(round).get(`/v1/pets/${id}`)).body).toEqual(winner.body);
      expect(winner.body.version).toBe(2);
    }
  });

  it('settles a delete racing an order for the same pet: one wins, never both', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = await addPet();
      const [removal, order] = await Promise.all([
        instance(round).delete(`/v1/pets/${id}`),
        instance(round + 1)
          .post('/v1/store/orders')
          .send({ petId: id }),
      ]);
      const stored = await row(id);
      if (removal.status === 204) {
        expect(order.status).toBe(404);
        expect(stored).toMatchObject({ deleted: true, orders: 0 });
      } else {
        expect([removal.status, removal.body.code]).toEqual([409, 'pet_has_open_order']);
        expect(order.status).toBe(201);
        expect(stored).toMatchObject({ deleted: false, status: 'pending', orders: 1 });
      }
    }
    const [{ pending }] = await one.dataSource.query(
      `SELECT count(*)::int AS pending FROM pets WHERE deleted_at IS NULL AND status = 'pending'`,
    );
    expect(await inventory()).toEqual({ available: 0, pending, sold: 0 });
  });

  it('settles a hold racing an order: the status has one owner, never two', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = await addPet();
      const [hold, order] = await Promise.all([
        instance(round).patch(`/v1/pets/${id}`).send({ status: 'sold' }),
        instance(round + 1)
          .post('/v1/store/orders')
          .send({ petId: id }),
      ]);
      const stored = await row(id);
      if (hold.status === 200) {
        expect([order.status, order.body.code]).toEqual([409, 'pet_not_available']);
        expect(stored).toMatchObject({ status: 'sold', orders: 0 });
      } else {
        expect([hold.status, hold.body.code]).toEqual([409, 'pet_has_open_order']);
        expect(order.status).toBe(201);
        expect(stored).toMatchObject({ status: 'pending', orders: 1 });
      }
    }
  });

  it('keeps every pet’s version exact under concurrent renames without If-Match', async () => {
    const id = await addPet();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        instance(i)
          .patch(`/v1/pets/${id}`)
          .send({ name: `Name ${i}` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    // Each applied after the one before: versions 2 to 11, each once, and the last one kept.
    expect(answers.map((a) => a.body.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 2),
    );
    const last = answers.find((a) => a.body.version === 11)!;
    expect((await row(id)).version).toBe(11);
    expect((await instance(0).get(`/v1/pets/${id}`)).body.name).toBe(last.body.name);
  });
});
