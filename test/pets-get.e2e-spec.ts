import { apiClient, expectError, request, Response } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { petBody } from './support/pets';

const BASE = 'https://pets.example/v1';

function expectDeprecationHeaders(response: Response): void {
  expect(response.headers.deprecation).toBe('@1795219200');
  expect(response.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(response.headers.link).toBe(`<${BASE}/pets>; rel="successor-version"`);
}

describe('GET /v1/pets/{petId} (deprecated)', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: BASE });
    api = apiClient(t.url, t.auth);
    await resetDatabase(t.dataSource);
    await api.post('/v1/pets').send({ name: 'Rex', categoryId: 3, status: 'sold' });
  });
  afterAll(() => t.close());

  it('returns the pet with the deprecation headers', async () => {
    const response = await api.get('/v1/pets/1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(petBody({ id: 1, name: 'Rex', categoryId: 3, status: 'sold' }));
    expect(response.headers.etag).toBe('"1"');
    expectDeprecationHeaders(response);
  });

  it.each(['2', '9007199254740993', '9223372036854775807'])(
    'answers 404 not_found with the deprecation headers for the unknown id %s',
    async (id) => {
      const response = expectError(await api.get(`/v1/pets/${id}`), 404, 'not_found');
      // The id as the client wrote it, never rounded.
      expect(response.body.message).toBe(`No pet with id ${id}.`);
      expectDeprecationHeaders(response);
    },
  );

  it.each(['0', '-1', 'abc', '1.5', '9223372036854775808', '1e3'])(
    'answers 400 validation_failed with the deprecation headers for the id %s',
    async (id) => {
      const response = expectError(await api.get(`/v1/pets/${id}`), 400, 'validation_failed');
      expect(response.body.message).toMatch(/petId/);
      expectDeprecationHeaders(response);
    },
  );

  it('marks a 401 and a 429 of the operation too', async () => {
    expectDeprecationHeaders(
      expectError(await apiClient(t.url).get('/v1/pets/1'), 401, 'unauthorized'),
    );
    const { auth } = await t.issueKey({ limits: { perMinute: 1, perDay: 100 } });
    await apiClient(t.url, auth).get('/v1/pets/1');
    const refused = expectError(
      await apiClient(t.url, auth).get('/v1/pets/1'),
      429,
      'rate_limited',
    );
    expectDeprecationHeaders(refused);
  });

  it('marks a HEAD of the operation as its GET', async () => {
    const response = await request(t.url).head('/v1/pets/1').set(t.auth);
    expect(response.status).toBe(200);
    expectDeprecationHeaders(response);
  });

  it('does not mark the operations that are not deprecated', async () => {
    const response = await api.get('/v1/pets');
    expect(response.headers.deprecation).toBeUndefined();
    expect(response.headers.sunset).toBeUndefined();
  });
});

describe('GET /v1/pets/{petId} after its sunset', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: BASE, GET_PET_SUNSET: '2026-01-01T00:00:00Z' });
  });
  afterAll(() => t.close());

  it('answers 410 gone, still with the deprecation headers and the configured Sunset', async () => {
    const response = expectError(await apiClient(t.url, t.auth).get('/v1/pets/1'), 410, 'gone');
    expect(response.body.message).toMatch(/GET \/v1\/pets/);
    expect(response.headers.deprecation).toBe('@1795219200');
    expect(response.headers.sunset).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    expect(response.headers.link).toBe(`<${BASE}/pets>; rel="successor-version"`);
    expect(response.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('keeps serving the other operations', async () => {
    expect((await apiClient(t.url, t.auth).get('/v1/pets')).status).toBe(200);
  });
});
