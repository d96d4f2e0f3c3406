import { apiClient, expectError } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

/**
 * CONTRACT.md "Trust, round 4 (v1.4)": a path that is not validly percent-encoded is a 400
 * `validation_failed`, as a query is (it was a 404, the router reading it as no route); and a
 * webhook URL naming port 0 is a 400 (it was accepted, an endpoint that can never be reached).
 */
jest.setTimeout(60_000);

describe('percent-encoding of a path, and webhook URLs with port 0', () => {
  const ADMIN_TOKEN = 'encoding-and-ports-suite-admin-token-0123';
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    api = apiClient(t.url, t.auth);
  });
  afterAll(() => t.close());

  describe('a path that is not validly percent-encoded', () => {
    it.each([
      '/v1/pets/%E0',
      '/v1/pets/%E0%A4%A',
      '/v1/pets/%ZZ',
      '/v1/pets/%',
      '/v1/pets/%ED%A0%80',
      '/v1/categories/%FF',
      '/v1/%C3',
      '/v1/pets/%E0?limit=1',
    ])('is a 400 validation_failed naming the path: %s', async (path) => {
      const response = expectError(await api.get(path), 400, 'validation_failed');
      expect(response.body.details).toEqual([
        expect.objectContaining({ field: 'path', issue: 'format' }),
      ]);
      expect(response.body.message).toMatch(/path is not validly percent-encoded/);
    });

    it('is a 400 for every method, without a key, and on the admin API', async () => {
      expectError(await api.delete('/v1/pets/%E0'), 400, 'validation_failed');
      expectError(
        await api.patch('/v1/pets/%E0').set('content-type', 'application/json').send('{}'),
        400,
        'validation_failed',
      );
      expectError(await apiClient(t.url).get('/v1/pets/%E0'), 400, 'validation_failed');
      const admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
      expectError(await admin.get('/admin/organizations/%E0'), 400, 'validation_failed');
    });

    it('is counted like any request: it carries the rate-limit headers', async () => {
      const response = await api.get('/v1/pets/%E0');
      expect(response.headers['x-ratelimit-remaining']).toEqual(expect.any(String));
    });

    it('leaves valid encodings as they were: a 404 for a pet that is not there, a 200 for one that is', async () => {
      expectError(await api.get('/v1/pets/%39%39%39%39%39%39'), 404, 'not_found');
      const pet = (await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201))
        .body;
      const encoded = [...String(pet.id)].map((digit) => `%3${digit}`).join('');
      expect((await api.get(`/v1/pets/${encoded}`)).status).toBe(200);
      expectError(await api.get('/v1/nope'), 404, 'not_found');
    });
  });

  describe('a webhook URL naming port 0', () => {
    let customer: ReturnType<typeof apiClient>;

    beforeAll(async () => {
      customer = apiClient(
        t.url,
        (await t.issueKey({ scopes: ['pets:read', 'webhooks:manage'] })).auth,
      );
    });

    it.each([
      'https://example.com:0/',
      'https://example.com:00/hook',
      'https://[2606:4700::1111]:0/',
    ])('is refused at registration and at update with 400: %s', async (url) => {
      const refused = expectError(
        await customer.post('/v1/webhook-endpoints').send({ url, events: ['*'] }),
        400,
        'validation_failed',
      );
      expect(refused.body.message).toMatch(/port 0/);
      const created = await customer
        .post('/v1/webhook-endpoints')
        .send({ url: 'https://example.com:8443/hook', events: ['*'] })
        .expect(201);
      expect(created.body.url).toBe('https://example.com:8443/hook');
      expectError(
        await customer.patch(`/v1/webhook-endpoints/${created.body.id}`).send({ url }),
        400,
        'validation_failed',
      );
      await customer.delete(`/v1/webhook-endpoints/${created.body.id}`).expect(204);
    });
  });
});
