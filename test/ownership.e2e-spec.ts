import { randomUUID } from 'node:crypto';
import { apiClient, expectError } from './support/http';
import { addPet } from './support/pets';
import { startTestApp, TestApp } from './support/test-app';
import { redisKeyPrefix } from './support/confinement';

jest.setTimeout(60_000);

const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';

type Api = ReturnType<typeof apiClient>;

/**
 * Shelters as tenants (docs/api.md, "Organisations and ownership"), on two instances sharing the
 * database and Redis as production does: every request below alternates between them. No key
 * changes what another organisation owns, and a key without the scope learns nothing (403 first).
 */
describe('ownership across organisations, on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  /** Staff of organisation `harbour` (every scope) and of `moor`, on alternate instances. */
  let harbour: Api;
  let harbourOnB: Api;
  let moor: Api;
  /** An adopter's key: the default scopes, no organisation. */
  let adopter: Api;
  let harbourId: number;
  let moorId: number;
  let moorKeyId: number;

  const STAFF = [
    'pets:read',
    'pets:write',
    'pets:manage',
    'orders:read',
    'orders:write',
    'orders:manage',
    'organization:manage',
  ];

  beforeAll(async () => {
    const prefix = `${redisKeyPrefix()}ownership:${randomUUID()}:`;
    a = await startTestApp({ ADMIN_TOKEN, REDIS_KEY_PREFIX: prefix });
    b = await startTestApp({ ADMIN_TOKEN, REDIS_KEY_PREFIX: prefix });
    const admin = apiClient(a.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const onboard = async (name: string) =>
      (
        await admin.post('/admin/organizations').send({
          name: `${name} ${randomUUID().slice(0, 8)}`,
          email: 'adopt@shelter.example',
          address: { city: 'Bristol', country: 'GB' },
        })
      ).body.id as number;
    harbourId = await onboard('Harbour');
    moorId = await onboard('Moor');
    const staffKey = async (organizationId: number) =>
      (
        await admin
          .post('/admin/api-keys')
          .send({ name: 'staff', plan: 'pro', scopes: STAFF, organizationId })
      ).body as { id: number; key: string };
    const harbourKey = await staffKey(harbourId);
    const moorKey = await staffKey(moorId);
    moorKeyId = moorKey.id;
    harbour = apiClient(a.url, { authorization: `Bearer ${harbourKey.key}` });
    harbourOnB = apiClient(b.url, { authorization: `Bearer ${harbourKey.key}` });
    moor = apiClient(b.url, { authorization: `Bearer ${moorKey.key}` });
    adopter = apiClient(a.url, (await a.issueKey({ plan: 'free', limits: undefined })).auth);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  const read = async (id: number) => (await apiClient(a.url, a.auth).get(`/v1/pets/${id}`)).body;

  it("puts a pet in its creator's organisation, and a v1 key's in organisation 1", async () => {
    expect((await addPet(harbour)).organizationId).toBe(harbourId);
    expect((await addPet(moor)).organizationId).toBe(moorId);
    expect((await addPet(adopter)).organizationId).toBe(1);
  });

  it("lets an organisation's staff correct, hold and remove its own pets, on either instance", async () => {
    const pet = await addPet(harbour);
    expect((await harbourOnB.patch(`/v1/pets/${pet.id}`).send({ name: 'Max' })).status).toBe(200);
    expect((await harbour.patch(`/v1/pets/${pet.id}`).send({ status: 'pending' })).status).toBe(
      200,
    );
    expect((await harbourOnB.delete(`/v1/pets/${pet.id}`)).status).toBe(204);
  });

  describe("a write of every kind on another organisation's object answers 404 and changes nothing", () => {
    it('updatePet: a new name, a hold, a sale by hand, with or without If-Match', async () => {
      const pet = await addPet(harbour);
      for (const [body, ifMatch] of [
        [{ name: 'Stolen' }, undefined],
        [{ status: 'pending' }, undefined],
        [{ status: 'sold' }, '"1"'],
        [{}, undefined],
      ] as const) {
        const request = moor.patch(`/v1/pets/${pet.id}`);
        if (ifMatch) void request.set('if-match', ifMatch);
        expectError(await request.send(body), 404, 'not_found');
      }
      expect(await read(pet.id)).toEqual(pet);
    });

    it('deletePet', async () => {
      const pet = await addPet(harbour);
      expectError(await moor.delete(`/v1/pets/${pet.id}`), 404, 'not_found');
      expect(await read(pet.id)).toEqual(pet);
    });

    it("updateOrder: approving, delivering or cancelling an order for another's pet", async () => {
      const pet = await addPet(harbour);
      const order = (await adopter.post('/v1/store/orders').send({ petId: pet.id })).body;
      for (const status of ['approved', 'delivered', 'cancelled']) {
        expectError(
          await moor.patch(`/v1/store/orders/${order.id}`).send({ status }),
          404,
          'not_found',
        );
      }
      expectError(await moor.get(`/v1/store/orders/${order.id}`), 404, 'not_found');
      expect((await moor.get(`/v1/store/orders?petId=${pet.id}`)).body).toEqual([]);
      const seen = await harbourOnB.get(`/v1/store/orders/${order.id}`);
      expect(seen.body.status).toBe('placed');
      expect(
        (await harbourOnB.patch(`/v1/store/orders/${order.id}`).send({ status: 'approved' }))
          .status,
      ).toBe(200);
    });

    it('putCategory: only organisation 1 names the shared categories (403)', async () => {
      const pet = await addPet(harbour, { categoryId: 900_001 });
      expectError(
        await harbour.put(`/v1/categories/${pet.categoryId}`).send({ name: 'Ours' }),
        403,
        'forbidden',
      );
      const categories = (await harbour.get(`/v1/categories?after=900000&limit=1`)).body;
      expect(categories).toEqual([{ id: 900_001, name: null }]);
      const house = apiClient(a.url, a.auth);
      expect(
        (await house.put('/v1/categories/900001').send({ name: `Named ${randomUUID()}` })).status,
      ).toBe(200);
    });

    it('updateOrganization', async () => {
      const before = (await harbour.get(`/v1/organizations/${moorId}`)).body;
      expectError(
        await harbourOnB.patch(`/v1/organizations/${moorId}`).send({ phone: '+1 555 0100' }),
        404,
        'not_found',
      );
      expect((await harbour.get(`/v1/organizations/${moorId}`)).body).toEqual(before);
    });

    it('rollKey and revokeOrganizationKey', async () => {
      expectError(
        await harbour.post(`/v1/keys/${moorKeyId}/roll`).send({ overlapSeconds: 0 }),
        404,
        'not_found',
      );
      expectError(await harbourOnB.delete(`/v1/keys/${moorKeyId}`), 404, 'not_found');
      expect((await moor.get('/v1/keys/self')).status).toBe(200);
      expect((await harbour.get('/v1/keys')).body.map((k: { id: number }) => k.id)).not.toContain(
        moorKeyId,
      );
    });
  });

  describe("the fourth review's reproduction: a key issued without scopes", () => {
    it('cannot rename, sell or delete a pet, rename a category, or hold pets past its cap (403), and changes nothing', async () => {
      const pet = await addPet(harbour);
      const houses = await addPet(apiClient(a.url, a.auth));
      const free = apiClient(b.url, (await b.issueKey({ plan: 'free', limits: undefined })).auth);
      for (const target of [pet, houses]) {
        expectError(
          await free.patch(`/v1/pets/${target.id}`).send({ name: 'Mine' }),
          403,
          'forbidden',
        );
        expectError(
          await free.patch(`/v1/pets/${target.id}`).send({ status: 'sold' }),
          403,
          'forbidden',
        );
        expectError(
          await free.patch(`/v1/pets/${target.id}`).send({ status: 'pending' }),
          403,
          'forbidden',
        );
        expectError(await free.delete(`/v1/pets/${target.id}`), 403, 'forbidden');
      }
      const forbidden = expectError(
        await free.put(`/v1/categories/${pet.categoryId}`).send({ name: 'Renamed' }),
        403,
        'forbidden',
      );
      expect(forbidden.headers['www-authenticate']).toBe(
        'Bearer error="insufficient_scope", scope="pets:manage"',
      );
      expect(await read(pet.id)).toEqual(pet);
      expect(await read(houses.id)).toEqual(houses);
    });
  });

  describe('orders and their events follow the organisation of the pet', () => {
    it("shows a manager its organisation's orders and their events, and no one else's", async () => {
      const harbourPet = await addPet(harbour);
      const moorPet = await addPet(moor);
      const first = (await adopter.post('/v1/store/orders').send({ petId: harbourPet.id })).body;
      const second = (await adopter.post('/v1/store/orders').send({ petId: moorPet.id })).body;
      const ids = (response: { body: { id: number }[] }) => response.body.map((o) => o.id);
      const harbourOrders = ids(await harbourOnB.get(`/v1/store/orders?after=${first.id - 1}`));
      expect(harbourOrders).toContain(first.id);
      expect(harbourOrders).not.toContain(second.id);
      const moorOrders = ids(await moor.get(`/v1/store/orders?after=${first.id - 1}`));
      expect(moorOrders).toContain(second.id);
      expect(moorOrders).not.toContain(first.id);
      expect(ids(await adopter.get(`/v1/store/orders?after=${first.id - 1}`))).toEqual([
        first.id,
        second.id,
      ]);
      // The feed settles events once older transactions end: wait for the last order's.
      const orderEvents = async (api: Api) => {
        for (let attempt = 0; ; attempt++) {
          const events = (await api.get('/v1/events?type=order.placed&limit=100')).body as {
            data: { id: number };
          }[];
          const seen = events.map((event) => event.data.id);
          if (seen.includes(first.id) || seen.includes(second.id) || attempt === 20) return seen;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const harbourSeen = await orderEvents(harbour);
      expect(harbourSeen).toContain(first.id);
      expect(harbourSeen).not.toContain(second.id);
      const moorSeen = await orderEvents(moor);
      expect(moorSeen).toContain(second.id);
      expect(moorSeen).not.toContain(first.id);
    });

    it('lets adopters change no status but through orders: only the staff hold a pet', async () => {
      const pet = await addPet(harbour);
      expectError(
        await adopter.patch(`/v1/pets/${pet.id}`).send({ status: 'pending' }),
        403,
        'forbidden',
      );
      const held = await harbour.patch(`/v1/pets/${pet.id}`).send({ status: 'pending' });
      expect(held.body.status).toBe('pending');
      expectError(
        await adopter.post('/v1/store/orders').send({ petId: pet.id }),
        409,
        'pet_not_available',
      );
      expect(
        (await harbourOnB.patch(`/v1/pets/${pet.id}`).send({ status: 'available' })).status,
      ).toBe(200);
      expect((await adopter.post('/v1/store/orders').send({ petId: pet.id })).status).toBe(201);
    });
  });
});
