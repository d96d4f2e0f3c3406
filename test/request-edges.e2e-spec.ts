import { apiClient, expectError, request } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * Two readings of one request are refused (docs/api.md, "Hostile input"): a JSON object with a
 * repeated member (JSON.parse keeps the last, a proxy or a log may read the first), and a query
 * string that is not validly percent-encoded (it was read with U+FFFD in place of the bytes).
 */
jest.setTimeout(60_000);

describe('request edges: repeated JSON members and percent-encoding', () => {
  const ADMIN_TOKEN = 'request-edges-suite-admin-token-0123456789';
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let admin: ReturnType<typeof apiClient>;
  const count = async (table: string) =>
    Number((await t.dataSource.query(`SELECT count(*) FROM ${table}`))[0].count);
  const json = (
    client: ReturnType<typeof apiClient>,
    method: 'post' | 'patch' | 'put',
    path: string,
  ) => client[method](path).set('content-type', 'application/json');

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    api = apiClient(t.url, t.auth);
    admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  describe('a JSON object with a repeated member', () => {
    it.each([
      ['{"name":"Rex","categoryId":1,"name":"Max"}', 'name'],
      ['{"name":"Rex","categoryId":1,"status":"sold","status":"available"}', 'status'],
      ['{"name":"Rex","n\\u0061me":"Max","categoryId":1}', 'name'],
      ['{"name":"Rex","categoryId":1,"categoryId":2}', 'categoryId'],
    ])('is a 400 naming it, storing nothing: %s', async (body, field) => {
      const response = expectError(
        await json(api, 'post', '/v1/pets').send(body),
        400,
        'validation_failed',
      );
      expect(response.body.details).toEqual([expect.objectContaining({ field, issue: 'format' })]);
      expect(response.body.message).toMatch(/more than once/);
      expect(await count('pets')).toBe(0);
    });

    it('is refused in a patch (either content type), leaving the pet as it was', async () => {
      const pet = (await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201))
        .body;
      for (const type of ['application/json', 'application/merge-patch+json']) {
        expectError(
          await api
            .patch(`/v1/pets/${pet.id}`)
            .set('content-type', type)
            .send('{"status":"sold","status":"available"}'),
          400,
          'validation_failed',
        );
      }
      expect((await api.get(`/v1/pets/${pet.id}`)).body).toMatchObject({
        status: 'available',
        version: 1,
      });
    });

    it('is refused inside nested objects, naming the path', async () => {
      const before = await count('organizations');
      const response = await json(admin, 'post', '/admin/organizations').send(
        '{"name":"Harbour Rescue","email":"a@b.example","address":{"city":"Bristol","country":"GB","city":"Bath"}}',
      );
      expect(expectError(response, 400, 'validation_failed').body.details).toEqual([
        expect.objectContaining({ field: 'address.city' }),
      ]);
      expect(await count('organizations')).toBe(before);
    });

    it('leaves alone the same name in different objects, and in strings', async () => {
      await json(api, 'post', '/v1/pets')
        .send('{"name":"{\\"name\\":1,\\"name\\":2}","categoryId":1}')
        .expect(201);
      await json(admin, 'post', '/admin/organizations')
        .send(
          `{"name":"City ${Date.now()}","email":"a@b.example","address":{"city":"Bristol","country":"GB"},"location":{"lat":1,"lon":2}}`,
        )
        .expect(201);
    });
  });

  describe('a query string that is not validly percent-encoded', () => {
    it.each(['%E0%A4%A', '%', '%ZZ', '%FF', '%C3', '%ED%A0%80', '%C0%AF'])(
      'is a 400 on a listing, naming the parameter: name=%s',
      async (encoded) => {
        const response = expectError(
          await api.get(`/v1/pets?name=${encoded}`),
          400,
          'validation_failed',
        );
        expect(response.body.details).toEqual([
          expect.objectContaining({ field: 'query', issue: 'format' }),
        ]);
        expect(response.body.message).toMatch(/"name" is not validly percent-encoded/);
      },
    );

    it('is a 400 on operations without query parameters, and on the admin API', async () => {
      const pet = (await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201))
        .body;
      for (const path of [
        `/v1/pets/${pet.id}?x=%E0%A4%A`,
        '/v1/store/inventory?%FF=1',
        '/v1/categories?limit=%2',
        '/v1/keys/self?x=%C3',
        '/admin/organizations?name=%E0%A4%A',
        '/admin/api-keys?x=%FF',
      ]) {
        const client = path.startsWith('/admin') ? admin : api;
        expectError(await client.get(path), 400, 'validation_failed');
      }
      expectError(
        await request(t.url).get('/v1/pets/1?x=%E0').set(t.auth),
        400,
        'validation_failed',
      );
    });

    it('still reads valid encodings: UTF-8, + as space, %2B as plus', async () => {
      await api.post('/v1/pets').send({ name: 'Rénée+ Dog', categoryId: 1 }).expect(201);
      const found = await api.get('/v1/pets?name=R%C3%A9n%C3%A9e%2B+Dog').expect(200);
      expect(found.body.map((pet: { name: string }) => pet.name)).toEqual(['Rénée+ Dog']);
    });
  });
});
