import { apiClient, expectError } from './support/http';
import { addPet, petBody } from './support/pets';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/** PATCH /v1/pets/{petId}: correcting an animal (docs/api.md, "Correcting and removing"). */
describe('PATCH /v1/pets/{petId}', () => {
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
  const read = async (id: number) => (await api.get(`/v1/pets/${id}`)).body;

  it('changes the fields given, keeps the others, and answers the pet with its new ETag', async () => {
    const pet = await create();
    const response = await api.patch(`/v1/pets/${pet.id}`).send({ name: 'Max', status: 'sold' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      petBody({ id: pet.id, name: 'Max', categoryId: 1, status: 'sold' }, 2),
    );
    expect(response.headers.etag).toBe('"2"');
    expect(response.headers['x-api-stability']).toBe('beta');
    expect(response.body.createdAt).toBe(pet.createdAt);
    expect(Date.parse(response.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(pet.updatedAt));
    expect(await read(pet.id)).toEqual(response.body);
  });

  it('takes application/merge-patch+json as well as application/json, and nothing else', async () => {
    const pet = await create();
    const merged = await api
      .patch(`/v1/pets/${pet.id}`)
      .set('content-type', 'application/merge-patch+json')
      .send(JSON.stringify({ categoryId: 2 }));
    expect(merged.status).toBe(200);
    expect(merged.body.categoryId).toBe(2);
    expectError(
      await api
        .patch(`/v1/pets/${pet.id}`)
        .set('content-type', 'text/plain')
        .send('{"name":"Max"}'),
      415,
      'unsupported_media_type',
    );
  });

  it('answers {} with the pet unchanged: same version, same ETag, same updatedAt', async () => {
    const pet = await create();
    const response = await api.patch(`/v1/pets/${pet.id}`).send({});
    expect(response.status).toBe(200);
    expect(response.body).toEqual(pet);
    expect(response.headers.etag).toBe('"1"');
  });

  it('counts no version for a patch that restates what the pet already is', async () => {
    const pet = await create();
    const response = await api
      .patch(`/v1/pets/${pet.id}`)
      .send({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(response.body).toEqual(pet);
  });

  it.each([
    [{ name: null }, 'name'],
    [{ categoryId: null }, 'categoryId'],
    [{ status: null }, 'status'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ categoryId: 0 }, 'categoryId'],
    [{ categoryId: '5' }, 'categoryId'],
    [{ categoryId: 9007199254740992 }, 'categoryId'],
    [{ status: 'lost' }, 'status'],
    [{ id: 2 }, 'id'],
    [{ version: 5 }, 'version'],
    [{ createdAt: '2026-01-01T00:00:00.000Z' }, 'createdAt'],
  ])('refuses %j with a 400 naming %s, and changes nothing', async (body, field) => {
    const pet = await create();
    const response = expectError(
      await api.patch(`/v1/pets/${pet.id}`).send(body),
      400,
      'validation_failed',
    );
    expect(response.body.message).toContain(field);
    expect(await read(pet.id)).toEqual(pet);
  });

  it('judges a number by its text, as createPet does', async () => {
    const pet = await create();
    const response = expectError(
      await api
        .patch(`/v1/pets/${pet.id}`)
        .set('content-type', 'application/json')
        .send('{"categoryId":2.0}'),
      400,
      'validation_failed',
    );
    expect(response.body.message).toContain('categoryId');
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"Max"'],
  ])('refuses a body that is %s', async (_, body) => {
    const pet = await create();
    expectError(
      await api.patch(`/v1/pets/${pet.id}`).set('content-type', 'application/json').send(body),
      400,
      'validation_failed',
    );
  });

  it('answers 404 for an unknown pet, 400 for an id that is none', async () => {
    expectError(await api.patch('/v1/pets/99').send({ name: 'Max' }), 404, 'not_found');
    expectError(
      await api.patch('/v1/pets/9007199254740993').send({ name: 'Max' }),
      404,
      'not_found',
    );
    expectError(await api.patch('/v1/pets/abc').send({ name: 'Max' }), 400, 'validation_failed');
  });

  it('needs pets:manage (v1.3: pets:write only creates), refused before the body is read', async () => {
    const pet = await create();
    for (const scopes of [['pets:read'], ['pets:read', 'pets:write']]) {
      const reader = apiClient(t.url, (await t.issueKey({ scopes, organizationId: '1' })).auth);
      const response = expectError(
        await reader.patch(`/v1/pets/${pet.id}`).send({ name: null }),
        403,
        'forbidden',
      );
      expect(response.headers['www-authenticate']).toContain('scope="pets:manage"');
    }
    expect((await api.get(`/v1/pets/${pet.id}`)).body).toEqual(pet);
  });

  describe('a new categoryId', () => {
    it('creates the category it names, unnamed, as a create does', async () => {
      const pet = await create();
      await api.patch(`/v1/pets/${pet.id}`).send({ categoryId: 9007199254740991 }).expect(200);
      const categories = (await api.get('/v1/categories')).body;
      expect(categories).toEqual([
        { id: 1, name: null },
        { id: 9007199254740991, name: null },
      ]);
    });

    it('creates no category when the change is refused', async () => {
      const pet = await create();
      await api
        .patch(`/v1/pets/${pet.id}`)
        .set('if-match', '"7"')
        .send({ categoryId: 42 })
        .expect(412);
      await api.patch('/v1/pets/99').send({ categoryId: 43 }).expect(404);
      expect((await api.get('/v1/categories')).body).toEqual([{ id: 1, name: null }]);
    });
  });

  describe('If-Match', () => {
    it('applies the change when it names the current ETag', async () => {
      const pet = await create();
      const response = await api
        .patch(`/v1/pets/${pet.id}`)
        .set('if-match', '"1"')
        .send({ name: 'Max' });
      expect(response.status).toBe(200);
      expect(response.headers.etag).toBe('"2"');
    });

    it.each([
      ['a stale ETag', '"1"'],
      ['a weak ETag, even the current one (strong comparison)', 'W/"2"'],
      ['a tag that is no version', '"abc"'],
      ['a list without the current ETag', '"1", "3", W/"2"'],
    ])('refuses %s with 412, changing nothing', async (_, ifMatch) => {
      const pet = await create();
      await api.patch(`/v1/pets/${pet.id}`).send({ name: 'Max' }).expect(200);
      const response = expectError(
        await api.patch(`/v1/pets/${pet.id}`).set('if-match', ifMatch).send({ name: 'Tom' }),
        412,
        'precondition_failed',
      );
      expect(response.body.message).toContain('version 2');
      expect((await read(pet.id)).name).toBe('Max');
      // {} is judged by the same precondition.
      expectError(
        await api.patch(`/v1/pets/${pet.id}`).set('if-match', ifMatch).send({}),
        412,
        'precondition_failed',
      );
    });

    it.each([
      ['a list naming the current ETag', '"1", "2"'],
      ['*', '*'],
    ])('applies the change for %s', async (_, ifMatch) => {
      const pet = await create();
      await api.patch(`/v1/pets/${pet.id}`).send({ name: 'Max' }).expect(200);
      const response = await api
        .patch(`/v1/pets/${pet.id}`)
        .set('if-match', ifMatch)
        .send({ name: 'Tom' });
      expect(response.status).toBe(200);
      expect(response.body.version).toBe(3);
    });

    it('is a 404, not a 412, for a pet that does not exist', async () => {
      expectError(
        await api.patch('/v1/pets/99').set('if-match', '"1"').send({ name: 'Max' }),
        404,
        'not_found',
      );
      expectError(await api.patch('/v1/pets/99').set('if-match', '*').send({}), 404, 'not_found');
    });

    it.each(['1', '"1', 'W/ "1"', '*, "1"', ''])(
      'refuses the malformed value %j with a 400 naming If-Match',
      async (ifMatch) => {
        const pet = await create();
        const response = expectError(
          await api.patch(`/v1/pets/${pet.id}`).set('if-match', ifMatch).send({ name: 'Max' }),
          400,
          'validation_failed',
        );
        expect(response.body.message).toContain('If-Match');
        expect((await read(pet.id)).name).toBe('Rex');
      },
    );
  });

  describe('status by hand', () => {
    it.each([
      ['available', 'pending'],
      ['pending', 'sold'],
      ['sold', 'available'],
      ['pending', 'available'],
    ])('moves a pet without an open order from %s to %s', async (from, to) => {
      const pet = await create({ status: from });
      const response = await api.patch(`/v1/pets/${pet.id}`).send({ status: to });
      expect(response.status).toBe(200);
      expect(response.body.status).toBe(to);
    });

    it('puts a pet on hold: pending by hand, it cannot be ordered', async () => {
      const pet = await create();
      await api.patch(`/v1/pets/${pet.id}`).send({ status: 'pending' }).expect(200);
      const order = await api.post('/v1/store/orders').send({ petId: pet.id });
      expectError(order, 409, 'pet_not_available');
    });

    it('is the order’s while one is open: a status change is a 409, other fields still change', async () => {
      const pet = await create();
      const order = (await api.post('/v1/store/orders').send({ petId: pet.id }).expect(201)).body;
      for (const status of ['available', 'sold']) {
        const refused = expectError(
          await api.patch(`/v1/pets/${pet.id}`).send({ name: 'Max', status }),
          409,
          'pet_has_open_order',
        );
        expect(refused.body.message).toContain(`Pet ${pet.id}`);
      }
      expect(await read(pet.id)).toMatchObject({ name: 'Rex', status: 'pending' });
      const renamed = await api
        .patch(`/v1/pets/${pet.id}`)
        .send({ name: 'Max', categoryId: 2, status: 'pending' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Max', categoryId: 2, status: 'pending' });
      // Once the order is approved it still owns the status; once cancelled, it no longer does.
      await shelter.patch(`/v1/store/orders/${order.id}`).send({ status: 'approved' }).expect(200);
      expectError(
        await api.patch(`/v1/pets/${pet.id}`).send({ status: 'sold' }),
        409,
        'pet_has_open_order',
      );
      await shelter.patch(`/v1/store/orders/${order.id}`).send({ status: 'cancelled' }).expect(200);
      await api.patch(`/v1/pets/${pet.id}`).send({ status: 'sold' }).expect(200);
    });

    it('checks If-Match before the open order: a stale ETag is a 412 even then', async () => {
      const pet = await create();
      await api.post('/v1/store/orders').send({ petId: pet.id }).expect(201);
      expectError(
        await api.patch(`/v1/pets/${pet.id}`).set('if-match', '"1"').send({ status: 'sold' }),
        412,
        'precondition_failed',
      );
    });
  });

  describe('the version follows every change, the store’s included', () => {
    it('changes the ETag when an order is placed, delivered or cancelled, not when approved', async () => {
      const pet = await create();
      const etag = async () => (await api.get(`/v1/pets/${pet.id}`)).headers.etag;
      const first = (await api.post('/v1/store/orders').send({ petId: pet.id }).expect(201)).body;
      expect(await etag()).toBe('"2"');
      await shelter.patch(`/v1/store/orders/${first.id}`).send({ status: 'approved' }).expect(200);
      expect(await etag()).toBe('"2"');
      await shelter.patch(`/v1/store/orders/${first.id}`).send({ status: 'cancelled' }).expect(200);
      expect(await etag()).toBe('"3"');
      const second = (await api.post('/v1/store/orders').send({ petId: pet.id }).expect(201)).body;
      await shelter.patch(`/v1/store/orders/${second.id}`).send({ status: 'approved' });
      await shelter.patch(`/v1/store/orders/${second.id}`).send({ status: 'delivered' });
      expect(await read(pet.id)).toMatchObject({ status: 'sold', version: 5 });
      // A client who read version 1 cannot overwrite what the orders did.
      expectError(
        await api.patch(`/v1/pets/${pet.id}`).set('if-match', '"1"').send({ name: 'Max' }),
        412,
        'precondition_failed',
      );
    });

    it('is kept by the database, whoever writes: a write cannot forge or forget it', async () => {
      const pet = await create();
      await t.dataSource.query(
        `UPDATE pets SET version = 40, created_at = now() - interval '1 day' WHERE id = $1`,
        [pet.id],
      );
      expect(await read(pet.id)).toEqual(pet);
      await t.dataSource.query(`UPDATE pets SET name = 'Max', version = 40 WHERE id = $1`, [
        pet.id,
      ]);
      expect(await read(pet.id)).toMatchObject({ name: 'Max', version: 2 });
    });
  });
});
