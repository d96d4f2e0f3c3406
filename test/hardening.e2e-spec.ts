import { apiClient, errorBody, expectError, request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

describe('responses fit for a JSON API', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('carry no X-Powered-By and the security headers, on success and error alike', async () => {
    for (const response of [
      await apiClient(t.url, t.auth).get('/v1/pets'),
      await apiClient(t.url).get('/v1/pets'),
      await request(t.url).get('/nowhere'),
    ]) {
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });

  it('leave the documentation page its scripts', async () => {
    const response = await request(t.url).get('/v1/docs');
    expect(response.status).toBe(200);
    expect(response.headers['content-security-policy']).toBeUndefined();
  });

  it('send no CORS headers unless configured', async () => {
    const response = await apiClient(t.url, { ...t.auth, origin: 'https://elsewhere.example' }).get(
      '/v1/pets',
    );
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allow the configured browser origins only', async () => {
    const cors = await startTestApp({ CORS_ORIGINS: 'https://shop.example' });
    try {
      const allowed = await apiClient(cors.url, {
        ...cors.auth,
        origin: 'https://shop.example',
      }).get('/v1/pets');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example');
      expect(allowed.headers['access-control-expose-headers']).toMatch(/X-RateLimit-Remaining/);
      const other = await apiClient(cors.url, {
        ...cors.auth,
        origin: 'https://elsewhere.example',
      }).get('/v1/pets');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await cors.close();
    }
  });

  it('echo a plain X-Request-Id and make one up otherwise', async () => {
    const echoed = await apiClient(t.url, { ...t.auth, 'x-request-id': 'abc-123' }).get('/v1/pets');
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const made = await apiClient(t.url, { ...t.auth, 'x-request-id': 'bad id with spaces' }).get(
      '/v1/pets',
    );
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await apiClient(t.url, t.auth).get('/v1/pets')).headers['x-request-id']).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it.each([
    ['a huge path parameter', `/v1/pets/${'9'.repeat(500)}`],
    ['an odd encoding', '/v1/pets/%E0%A4%A'],
    ['control characters in a parameter', '/v1/pets?status=%00%01'],
    ['a __proto__ query parameter', '/v1/pets?__proto__=x'],
  ])('refuse %s with a 4xx, never a 5xx', async (_, path) => {
    const response = await apiClient(t.url, t.auth).get(path);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).toEqual({
      ...errorBody(response, response.body.code, response.status),
      code: expect.any(String),
    });
  });

  it('refuse deeply nested JSON without a 5xx', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = await apiClient(t.url, t.auth)
      .post('/v1/pets')
      .set('content-type', 'application/json')
      .send(deep);
    expectError(response, 400, 'validation_failed');
  });
});
