import { apiClient, expectError } from './support/http';
import { addPet } from './support/pets';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/** DELETE /v1/pets/{petId}: removing an animal from the catalogue, for good. */
describe('DELETE /v1/pets/{petId}', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let shelter: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp();
    api = apiClient(t.url, t.auth);
    shelter = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['orders:manage'], organizationId: '1' })).auth,
    );
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const create = (fields: Record<string, unknown> = {}) => addPet(api, fields);
  const inventory = async () => (await api.get('/v1/store/inventory')).body;

  it('answers 204, and the pet is gone from every read and write of the catalogue', async () => {
    const pet = await create();
    const kept = await create({ name: 'Max' });
    const response = await api.delete(`/v1/pets/${pet.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers['x-api-stability']).toBe('beta');
    expectError(await api.get(`/v1/pets/${pet.id}`), 404, 'not_found');
    expectError(await api.patch(`/v1/pets/${pet.id}`).send({ name: 'Tom' }), 404, 'not_found');
    expectError(await api.patch(`/v1/pets/${pet.id}`).send({}), 404, 'not_found');
    expectError(await api.delete(`/v1/pets/${pet.id}`), 404, 'not_found');
    const order = expectError(
      await api.post('/v1/store/orders').send({ petId: pet.id }),
      404,
      'not_found',
    );
    expect(order.body.message).toContain(`pet with id ${pet.id}`);
    for (const query of ['', '?status=available', '?categoryId=1', '?name=rex']) {
      expect((await api.get(`/v1/pets${query}`)).body.map((p: { id: number }) => p.id)).toEqual(
        query === '?name=rex' ? [] : [kept.id],
      );
    }
    expect(await inventory()).toEqual({ available: 1, pending: 0, sold: 0 });
  });

  it('never gives its id again', async () => {
    const pet = await create();
    await api.delete(`/v1/pets/${pet.id}`).expect(204);
    expect((await create()).id).toBe(pet.id + 1);
  });

  it('refuses a pet an open order holds (409), and lets it go once the order is closed', async () => {
    const pet = await create();
    const order = (await api.post('/v1/store/orders').send({ petId: pet.id }).expect(201)).body;
    const refused = expectError(await api.delete(`/v1/pets/${pet.id}`), 409, 'pet_has_open_order');
    expect(refused.body.message).toContain(`Pet ${pet.id}`);
    await shelter.patch(`/v1/store/orders/${order.id}`).send({ status: 'approved' }).expect(200);
    expectError(await api.delete(`/v1/pets/${pet.id}`), 409, 'pet_has_open_order');
    expect(await inventory()).toEqual({ available: 0, pending: 1, sold: 0 });
    await shelter.patch(`/v1/store/orders/${order.id}`).send({ status: 'delivered' }).expect(200);
    await api.delete(`/v1/pets/${pet.id}`).expect(204);
    expect(await inventory()).toEqual({ available: 0, pending: 0, sold: 0 });
  });

  it("keeps the pet's orders readable, naming it", async () => {
    const pet = await create();
    const order = (await api.post('/v1/store/orders').send({ petId: pet.id }).expect(201)).body;
    await api.patch(`/v1/store/orders/${order.id}`).send({ status: 'cancelled' }).expect(200);
    await api.delete(`/v1/pets/${pet.id}`).expect(204);
    expect((await api.get(`/v1/store/orders/${order.id}`)).body).toMatchObject({
      id: order.id,
      petId: pet.id,
      status: 'cancelled',
    });
    const listed = (await api.get(`/v1/store/orders?petId=${pet.id}`)).body;
    expect(listed.map((o: { id: number }) => o.id)).toEqual([order.id]);
  });

  it('removes a pet on hold (pending by hand, no order)', async () => {
    const pet = await create({ status: 'pending' });
    await api.delete(`/v1/pets/${pet.id}`).expect(204);
    expect(await inventory()).toEqual({ available: 0, pending: 0, sold: 0 });
  });

  describe('If-Match', () => {
    it('removes the pet when it names the current ETag, or *', async () => {
      const one = await create();
      const two = await create();
      await api.delete(`/v1/pets/${one.id}`).set('if-match', '"1"').expect(204);
      await api.delete(`/v1/pets/${two.id}`).set('if-match', '*').expect(204);
    });

    it('refuses a stale or weak ETag with 412 and keeps the pet', async () => {
      const pet = await create();
      await api.patch(`/v1/pets/${pet.id}`).send({ name: 'Max' }).expect(200);
      for (const ifMatch of ['"1"', 'W/"2"']) {
        expectError(
          await api.delete(`/v1/pets/${pet.id}`).set('if-match', ifMatch),
          412,
          'precondition_failed',
        );
      }
      expect((await api.get(`/v1/pets/${pet.id}`)).body.name).toBe('Max');
    });

    it('is a 404 for a pet already deleted, whatever it names', async () => {
      const pet = await create();
      await api.delete(`/v1/pets/${pet.id}`).expect(204);
      expectError(await api.delete(`/v1/pets/${pet.id}`).set('if-match', '*'), 404, 'not_found');
      expectError(await api.delete(`/v1/pets/${pet.id}`).set('if-match', '"2"'), 404, 'not_found');
    });

    it('refuses a malformed value with a 400', async () => {
      const pet = await create();
      expectError(
        await api.delete(`/v1/pets/${pet.id}`).set('if-match', '1'),
        400,
        'validation_failed',
      );
    });
  });

  it('needs pets:manage (v1.3: pets:write only creates)', async () => {
    const pet = await create();
    for (const scopes of [['pets:read'], ['pets:read', 'pets:write']]) {
      const reader = apiClient(t.url, (await t.issueKey({ scopes, organizationId: '1' })).auth);
      const refused = expectError(await reader.delete(`/v1/pets/${pet.id}`), 403, 'forbidden');
      expect(refused.headers['www-authenticate']).toContain('scope="pets:manage"');
    }
    expect((await api.get(`/v1/pets/${pet.id}`)).status).toBe(200);
    expectError(await api.delete('/v1/pets/0'), 400, 'validation_failed');
    expectError(await api.delete('/v1/pets/9007199254740993'), 404, 'not_found');
  });

  describe('the database has the last word', () => {
    it('refuses to delete a pet with an open order, whoever writes', async () => {
      const pet = await create();
      await api.post('/v1/store/orders').send({ petId: pet.id }).expect(201);
      await expect(
        t.dataSource.query('UPDATE pets SET deleted_at = now() WHERE id = $1', [pet.id]),
      ).rejects.toThrow(/open order/);
    });

    it('never changes a deleted pet again, and keeps the inventory exact', async () => {
      const pet = await create();
      await api.delete(`/v1/pets/${pet.id}`).expect(204);
      await t.dataSource.query(
        `UPDATE pets SET status = 'sold', deleted_at = NULL, name = 'Ghost' WHERE id = $1`,
        [pet.id],
      );
      const [row] = await t.dataSource.query(
        'SELECT name, status, deleted_at IS NOT NULL AS deleted, version FROM pets WHERE id = $1',
        [pet.id],
      );
      expect(row).toEqual({ name: 'Rex', status: 'available', deleted: true, version: 2 });
      expect(await inventory()).toEqual({ available: 0, pending: 0, sold: 0 });
    });
  });
});
