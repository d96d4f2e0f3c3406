import { apiClient, expectError } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';

/**
 * Paths Fastify and Nest would answer before any guard: empty parameters, the root with a
 * trailing slash (`/v1` itself is the index: test/api-index.e2e-spec.ts).
 */
const UNKNOWN = [
  '/v1/',
  '/v1/pets/',
  '/v1/store/orders/',
  '/v1/nope/deeper',
  '/v1/?x=1',
  '/v1/pets/1/',
];

describe('every request under /v1 goes through the route table, counted', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ANONYMOUS_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('answers 404 not_found with the rate-limit headers, and counts each against the key', async () => {
    await awayFromMinuteEnd();
    const { auth } = await t.issueKey({ limits: { perMinute: 100, perDay: 1000 } });
    const api = apiClient(t.url, auth);
    let remaining = 100;
    for (const path of UNKNOWN) {
      const response = expectError(await api.get(path), 404, 'not_found');
      expect(response.body.message).toBe(`No route for GET ${path.split('?')[0]}.`);
      expect(response.headers['x-ratelimit-limit']).toBe('100');
      expect(Number(response.headers['x-ratelimit-remaining'])).toBe(--remaining);
      expect(response.headers['ratelimit-policy']).toBeDefined();
    }
  });

  it('answers 405 only where the path is known, whatever the method', async () => {
    const api = apiClient(t.url, t.auth);
    expectError(await api.post('/v1/pets/'), 404, 'not_found');
    expectError(await api.delete('/v1/'), 404, 'not_found');
    // The index is a path of its own: another method on it is told which it takes.
    expect((await api.delete('/v1')).headers.allow).toBe('GET, HEAD');
    const wrongMethod = expectError(await api.delete('/v1/pets'), 405, 'method_not_allowed');
    expect(wrongMethod.headers.allow).toBe('GET, HEAD, POST');
    expect(wrongMethod.headers['x-ratelimit-remaining']).toBeDefined();
    expect((await api.get('/v1/pets')).status).toBe(200);
  });

  it('refuses an anonymous flood of unknown paths with 429 once the address has spent its budget', async () => {
    await awayFromMinuteEnd();
    const anonymous = apiClient(t.url);
    const statuses = [];
    for (const path of [...UNKNOWN, '/v1/pets/']) {
      const response = await anonymous.get(path);
      expect(response.headers['x-ratelimit-remaining']).toBeDefined();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
    // The index is counted as every keyless request is.
    expectError(await anonymous.get('/v1'), 429, 'rate_limited');
  });

  it('counts the documentation under /v1 too, keyless or with a key, and refuses it past the budget', async () => {
    await awayFromMinuteEnd();
    // An instance of its own: the address's budget of this minute is untouched there.
    const docs = await startTestApp({ ANONYMOUS_PER_MINUTE: '5' });
    try {
      await documentationCounted(docs);
    } finally {
      await docs.close();
    }
  });
});

async function documentationCounted(t: TestApp): Promise<void> {
  const anonymous = apiClient(t.url);
  const statuses = [];
  for (const path of ['/v1/openapi.json', '/v1/docs', '/v1/openapi.yaml', '/v1/openapi.json']) {
    const response = await anonymous.get(path);
    expect(response.headers['x-ratelimit-limit']).toBe('5');
    statuses.push([response.status, response.headers['x-ratelimit-remaining']]);
  }
  expect(statuses).toEqual([
    [200, '4'],
    [200, '3'],
    [200, '2'],
    [200, '1'],
  ]);
  expect((await anonymous.get('/v1/docs/swagger-ui.css')).status).toBe(200);
  expectError(await anonymous.get('/v1/openapi.json'), 429, 'rate_limited');
  // A key's own budget, as everywhere under /v1.
  const { auth } = await t.issueKey({ limits: { perMinute: 100, perDay: 1000 } });
  const withKey = await apiClient(t.url, auth).get('/v1/openapi.json');
  expect(withKey.status).toBe(200);
  expect(withKey.headers['x-ratelimit-limit']).toBe('100');
}
