import { randomUUID } from 'node:crypto';
import { apiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const ADMIN_TOKEN = 'admin-token-for-the-findable-nearby-suite-0123';

/** A name no other run has used: organisations outlive the tests, names are unique. */
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

/**
 * CONTRACT.md "Fast feedback (v1.4)": an organisation without a location is never found by a
 * `near` search; every answer says so (`findableNearby`), from its creation on, rather than the
 * search missing it silently.
 */
describe('findableNearby: whether near searches can find an organisation', () => {
  let t: TestApp;
  let adminApi: ReturnType<typeof apiClient>;
  let reader: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    adminApi = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    reader = apiClient(t.url, (await t.issueKey({ scopes: ['pets:read'] })).auth);
  });
  afterAll(() => t.close());

  const onboard = async (fields: Record<string, unknown>) => {
    const response = await adminApi.post('/admin/organizations').send({
      name: unique('Findable'),
      email: 'adopt@findable.example',
      address: { city: 'Bristol', country: 'GB' },
      ...fields,
    });
    expect(response.status).toBe(201);
    return response.body as { id: number; findableNearby: boolean; location: unknown };
  };

  it('is false at creation without a location, and the search indeed misses it', async () => {
    const placeless = await onboard({});
    expect(placeless).toMatchObject({ location: null, findableNearby: false });
    const read = await reader.get(`/v1/organizations/${placeless.id}`);
    expect(read.body).toMatchObject({ location: null, findableNearby: false });
    // Its animals are listed, but never near anywhere: the flag says what the search does.
    const staff = apiClient(
      t.url,
      (await t.issueKey({ organizationId: String(placeless.id), scopes: ['pets:write'] })).auth,
    );
    const pet = await staff.post('/v1/pets').send({ name: 'Nowhere', categoryId: 1 }).expect(201);
    const near = await reader.get('/v1/pets').query({ near: '51.4545,-2.5879', radiusKm: 500 });
    expect(near.status).toBe(200);
    expect(near.body.map(({ id }: { id: number }) => id)).not.toContain(pet.body.id);
  });

  it('is true at creation with a location, in every answer: get, list and the admin listing', async () => {
    const placed = await onboard({ location: { lat: 51.4545, lon: -2.5879 } });
    expect(placed.findableNearby).toBe(true);
    expect((await reader.get(`/v1/organizations/${placed.id}`)).body.findableNearby).toBe(true);
    const listed = await reader.get('/v1/organizations').query({ near: '51.4545,-2.5879' });
    expect(listed.body.find(({ id }: { id: number }) => id === placed.id)).toMatchObject({
      findableNearby: true,
    });
    const all = (await adminApi.get('/admin/organizations').query({ limit: 100 })).body as {
      findableNearby: boolean;
      location: unknown;
    }[];
    for (const organization of all) {
      expect(organization.findableNearby).toBe(organization.location !== null);
    }
  });

  it('follows the location its staff set or clear', async () => {
    const { id } = await onboard({});
    const staff = apiClient(
      t.url,
      (await t.issueKey({ organizationId: String(id), scopes: ['organization:manage'] })).auth,
    );
    const placed = await staff
      .patch(`/v1/organizations/${id}`)
      .send({ location: { lat: 53.8008, lon: -1.5491 } });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({
      location: { lat: 53.8008, lon: -1.5491 },
      findableNearby: true,
    });
    const cleared = await staff.patch(`/v1/organizations/${id}`).send({ location: null });
    expect(cleared.body).toMatchObject({ location: null, findableNearby: false });
  });

  it('is read-only: a body that gives it is refused as any unknown field', async () => {
    const refused = await adminApi.post('/admin/organizations').send({
      name: unique('Claims'),
      email: 'adopt@claims.example',
      address: { city: 'Bristol', country: 'GB' },
      findableNearby: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toContainEqual(
      expect.objectContaining({ field: 'findableNearby', issue: 'unknown_field' }),
    );
  });
});
