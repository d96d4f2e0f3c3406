import { randomUUID } from 'node:crypto';
import { freshDatabase } from './support/fresh-database';
import { apiClient, expectError } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(30_000);

const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** The great-circle distance in km (the mean Earth radius), computed apart from the service. */
function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const h =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

/** A name no other test of the run has used: organisations outlive each test (a reset keeps them). */
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

/** Organisations: the shelters (docs/api.md, "Organisations and ownership"). */
describe('/v1/organizations and /admin/organizations', () => {
  let t: TestApp;
  let adminApi: ReturnType<typeof apiClient>;
  let reader: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    adminApi = apiClient(t.url, admin);
    reader = apiClient(t.url, (await t.issueKey({ scopes: ['pets:read'] })).auth);
  });
  afterAll(() => t.close());

  /** Creates an organisation through the admin API; its body. */
  const onboard = async (fields: Record<string, unknown> = {}) => {
    const response = await adminApi.post('/admin/organizations').send({
      name: unique('Harbour Rescue'),
      email: 'adopt@harbour.example',
      address: { city: 'Bristol', country: 'GB' },
      ...fields,
    });
    expect(response.status).toBe(201);
    return response.body as { id: number; name: string; version: number };
  };

  /** A key of an organisation's staff, through the admin API. */
  const staffOf = async (organizationId: number, scopes = ['pets:read', 'organization:manage']) => {
    const response = await adminApi
      .post('/admin/api-keys')
      .send({ name: 'staff', plan: 'pro', scopes, organizationId });
    expect(response.status).toBe(201);
    return apiClient(t.url, { authorization: `Bearer ${response.body.key}` });
  };

  it('has organisation 1 from the first start, without contact details until its staff give them', async () => {
    const response = await reader.get('/v1/organizations/1');
    expect(response.status).toBe(200);
    expect(response.headers.etag).toBe(`"${response.body.version}"`);
    expect(response.body).toMatchObject({
      id: 1,
      name: 'The Pet Store',
      email: null,
      phone: null,
      website: null,
      address: null,
      location: null,
      findableNearby: false,
      adoptionPolicy: null,
    });
    expect(response.headers['x-api-stability']).toBe('beta');
  });

  it('onboards a shelter with every member answered, null when not given, and its address', async () => {
    const name = unique('Moor Shelter');
    const response = await adminApi.post('/admin/organizations').send({
      name,
      email: 'hello@moor.example',
      website: 'https://moor.example',
      address: { line1: '1 High Street', city: 'Exeter', country: 'GB' },
      location: { lat: 50.7184, lon: -3.5339 },
    });
    expect(response.status).toBe(201);
    expect(response.headers.location).toBe(
      `${t.config.http.publicBaseUrl}/organizations/${response.body.id}`,
    );
    expect(response.body).toEqual({
      id: expect.any(Number),
      name,
      email: 'hello@moor.example',
      phone: null,
      website: 'https://moor.example/',
      address: {
        line1: '1 High Street',
        city: 'Exeter',
        region: null,
        postalCode: null,
        country: 'GB',
      },
      location: { lat: 50.7184, lon: -3.5339 },
      findableNearby: true,
      adoptionPolicy: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await reader.get(`/v1/organizations/${response.body.id}`)).body).toEqual(response.body);
  });

  it.each([
    ['no email', { email: undefined }, /email is required/],
    ['no address', { address: undefined }, /address is required/],
    ['no city', { address: { country: 'GB' } }, /address.city is required/],
    ['a country that is no ISO code', { address: { city: 'Bath', country: 'UK' } }, /ISO 3166-1/],
    ['a website over http', { website: 'http://x.example' }, /https/],
    ['a latitude beyond 90', { location: { lat: 91, lon: 0 } }, /location.lat/],
    ['a name of white space', { name: '   ' }, /name/],
    ['an unknown member', { owner: 'me' }, /owner/],
  ])('refuses to onboard a shelter with %s (400), storing nothing', async (_, fields, why) => {
    const before = (await adminApi.get('/admin/organizations?limit=100')).body.length;
    const response = expectError(
      await adminApi.post('/admin/organizations').send({
        name: unique('Refused'),
        email: 'a@b.example',
        address: { city: 'Bath', country: 'GB' },
        ...fields,
      }),
      400,
      'validation_failed',
    );
    expect(response.body.message).toMatch(why);
    expect((await adminApi.get('/admin/organizations?limit=100')).body).toHaveLength(before);
  });

  it('refuses a name another organisation has, whatever its case', async () => {
    const { name } = await onboard();
    const response = expectError(
      await adminApi.post('/admin/organizations').send({
        name: name.toUpperCase(),
        email: 'a@b.example',
        address: { city: 'Bath', country: 'GB' },
      }),
      409,
      'already_exists',
    );
    expect(response.body.message).toContain(name.toUpperCase());
  });

  it('needs ADMIN_TOKEN to onboard: an API key is no way in', async () => {
    const staff = await staffOf(1);
    expectError(
      await staff.post('/admin/organizations').send({ name: 'x', email: 'a@b.example' }),
      401,
      'unauthorized',
    );
  });

  describe('listOrganizations', () => {
    it('pages in ascending id with a next link, to any key that reads pets', async () => {
      for (let i = 0; i < 3; i++) await onboard();
      const first = await reader.get('/v1/organizations?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.map((o: { id: number }) => o.id)).toEqual([1, expect.any(Number)]);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
      expect(next).toBe(
        `${t.config.http.publicBaseUrl}/organizations?limit=2&after=${first.body[1].id}`,
      );
      const second = await reader.get(next.replace(t.config.http.publicBaseUrl, '/v1'));
      expect(second.body[0].id).toBeGreaterThan(first.body[1].id);
      expectError(
        await apiClient(t.url, (await t.issueKey({ scopes: ['orders:read'] })).auth).get(
          '/v1/organizations',
        ),
        403,
        'forbidden',
      );
    });

    it('finds shelters near a point, within the radius, each with its distance, the radius carried in the link', async () => {
      const tag = randomUUID().slice(0, 6);
      const bristol = await onboard({
        name: `Bristol ${tag}`,
        location: { lat: 51.4545, lon: -2.5879 },
      });
      const bath = await onboard({ name: `Bath ${tag}`, location: { lat: 51.3811, lon: -2.359 } });
      await onboard({ name: `Leeds ${tag}`, location: { lat: 53.8008, lon: -1.5491 } });
      await onboard({ name: `Nowhere ${tag}` });
      const near = await reader.get(`/v1/organizations?near=51.45,-2.6&radiusKm=30&name=${tag}`);
      expect(near.status).toBe(200);
      expect(near.body.map((o: { id: number }) => o.id)).toEqual([bristol.id, bath.id]);
      // Distances to the nearest 100 m, as the haversine formula gives them.
      expect(near.body[0].distanceKm).toBeCloseTo(haversineKm(51.4545, -2.5879, 51.45, -2.6), 1);
      expect(near.body[1].distanceKm).toBeCloseTo(haversineKm(51.3811, -2.359, 51.45, -2.6), 1);
      // Without a name, the page is chosen from the location index alone (prepared): the same
      // shelters, the same distances.
      const unnamed: { id: number; distanceKm: number }[] = [];
      for (
        let path: string | undefined = '/v1/organizations?near=51.45,-2.6&radiusKm=30&limit=100';
        path;
      ) {
        const page: { body: typeof unnamed; headers: Record<string, string> } = await reader
          .get(path)
          .expect(200);
        unnamed.push(...page.body);
        path = /<([^>]+)>; rel="next"/
          .exec(page.headers.link ?? '')?.[1]
          .replace(t.config.http.publicBaseUrl, '/v1');
      }
      const ours = new Set(
        (await reader.get(`/v1/organizations?name=${tag}`)).body.map((o: { id: number }) => o.id),
      );
      expect(unnamed.filter(({ id }) => ours.has(id))).toEqual(
        near.body.map(({ id, distanceKm }: { id: number; distanceKm: number }) =>
          expect.objectContaining({ id, distanceKm }),
        ),
      );
      const all = await reader.get(`/v1/organizations?near=51.45,-2.6&name=${tag}`);
      expect(all.body).toHaveLength(2);
      const wide = await reader.get(`/v1/organizations?near=51.45,-2.6&radiusKm=500&name=${tag}`);
      expect(wide.body).toHaveLength(3);
      const paged = await reader.get(
        `/v1/organizations?near=51.45,-2.6&radiusKm=30&name=${tag}&limit=1`,
      );
      expect(paged.headers.link).toContain(`near=51.45%2C-2.6&radiusKm=30&after=${bristol.id}`);
      expect((await reader.get(`/v1/organizations?name=${tag}`)).body[0]).not.toHaveProperty(
        'distanceKm',
      );
    });

    it.each([
      'near=91,0',
      'near=abc',
      'near=51.45',
      'near=51.45,-2.6&radiusKm=0',
      'near=51.45,-2.6&radiusKm=501',
      'near=51.45,-2.6&radiusKm=1.5',
      'radiusKm=10',
      'name=ab',
      'name=a%25',
      'near=1,1&near=2,2',
      'page=2',
    ])('refuses ?%s with 400', async (query) => {
      expectError(await reader.get(`/v1/organizations?${query}`), 400, 'validation_failed');
    });
  });

  describe('updateOrganization', () => {
    it("changes the key's own organisation, merging the address, under its ETag", async () => {
      const { id } = await onboard({
        address: { city: 'Bristol', country: 'GB', postalCode: 'BS1' },
      });
      const staff = await staffOf(id);
      const changed = await staff
        .patch(`/v1/organizations/${id}`)
        .set('if-match', '"1"')
        .set('content-type', 'application/merge-patch+json')
        .send(
          JSON.stringify({
            phone: '+44 117 496 0000',
            address: { line1: '12 Harbour Road', postalCode: null },
          }),
        );
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).toBe('"2"');
      expect(changed.body).toMatchObject({
        version: 2,
        phone: '+44 117 496 0000',
        address: { line1: '12 Harbour Road', city: 'Bristol', postalCode: null, country: 'GB' },
      });
      expectError(
        await staff.patch(`/v1/organizations/${id}`).set('if-match', '"1"').send({ phone: null }),
        412,
        'precondition_failed',
      );
      expect((await reader.get(`/v1/organizations/${id}`)).body.phone).toBe('+44 117 496 0000');
    });

    it("answers another organisation's staff with 404 and a key without organization:manage with 403, changing nothing", async () => {
      const { id } = await onboard();
      const other = await staffOf((await onboard()).id);
      const before = (await reader.get(`/v1/organizations/${id}`)).body;
      expectError(
        await other.patch(`/v1/organizations/${id}`).send({ name: 'Taken' }),
        404,
        'not_found',
      );
      expectError(
        await other.patch(`/v1/organizations/${id}`).set('if-match', '"9"').send({ name: 'Taken' }),
        404,
        'not_found',
      );
      const withoutScope = await staffOf(id, ['pets:read', 'pets:manage']);
      expectError(
        await withoutScope.patch(`/v1/organizations/${id}`).send({ name: 'Taken' }),
        403,
        'forbidden',
      );
      expectError(
        await apiClient(t.url, t.auth).patch(`/v1/organizations/${id}`).send({ name: 'Taken' }),
        403,
        'forbidden',
      );
      expect((await reader.get(`/v1/organizations/${id}`)).body).toEqual(before);
    });

    it("refuses to remove a required member, or to take another organisation's name", async () => {
      const { id } = await onboard();
      const { name: taken } = await onboard();
      const staff = await staffOf(id);
      for (const patch of [{ email: null }, { address: null }, { address: { city: null } }]) {
        expectError(
          await staff.patch(`/v1/organizations/${id}`).send(patch),
          400,
          'validation_failed',
        );
      }
      expectError(
        await staff.patch(`/v1/organizations/${id}`).send({ name: taken.toLowerCase() }),
        409,
        'already_exists',
      );
      expect((await reader.get(`/v1/organizations/${id}`)).body.version).toBe(1);
    });
  });
});

describe('organisation 1 named at start-up', () => {
  it('takes DEFAULT_ORGANIZATION_NAME while no one has changed it, and never again after', async () => {
    const database = await freshDatabase();
    try {
      const first = await startTestApp({
        DATABASE_URL: database.url,
        DEFAULT_ORGANIZATION_NAME: 'Harbour Pets',
      });
      const api = apiClient(first.url, first.auth);
      expect((await api.get('/v1/organizations/1')).body).toMatchObject({
        name: 'Harbour Pets',
        version: 2,
      });
      await first.close();
      const second = await startTestApp({
        DATABASE_URL: database.url,
        DEFAULT_ORGANIZATION_NAME: 'Another Name',
      });
      expect(
        (await apiClient(second.url, second.auth).get('/v1/organizations/1')).body,
      ).toMatchObject({
        name: 'Harbour Pets',
        version: 2,
      });
      await second.close();
    } finally {
      await database.drop();
    }
  });
});
