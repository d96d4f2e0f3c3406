import { databaseProxy, TcpProxy } from './support/tcp-proxy';
import { apiClient, expectError, request } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

describe('errors of every layer share the Error body', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp();
    api = apiClient(t.url, t.auth);
  });
  afterAll(() => t.close());

  // `/` and `/v1` are the index (test/api-index.e2e-spec.ts).
  it.each(['/v1/nope', '/v1/pets/1/owners', '/v1/', '/nope', '/v2/pets'])(
    'answers 404 not_found to an unknown route %s',
    async (path) => {
      const response = expectError(await api.get(path), 404, 'not_found');
      expect(response.body.message).toContain(path);
    },
  );

  it.each([
    ['put', '/v1/pets', 'GET, HEAD, POST'],
    ['delete', '/v1/pets', 'GET, HEAD, POST'],
    ['put', '/v1/pets/1', 'DELETE, GET, HEAD, PATCH'],
    ['post', '/v1/pets/1', 'DELETE, GET, HEAD, PATCH'],
  ] as const)('answers 405 with Allow to %s %s', async (method, path, allow) => {
    const response = expectError(await api[method](path), 405, 'method_not_allowed');
    expect(response.headers.allow).toBe(allow);
  });

  it('never reveals internals in a 4xx message', async () => {
    const response = await api
      .post('/v1/pets')
      .set('content-type', 'application/json')
      .send('{"name":');
    expect(JSON.stringify(response.body)).not.toMatch(/at |\.ts|SyntaxError|FST_/);
  });
});

describe('an unexpected failure', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await resetDatabase(t.dataSource);
    // Data that breaks an invariant of the domain (a status it does not know) makes the mapper
    // throw: a genuine unexpected error, not a stub.
    await t.dataSource.query('ALTER TABLE pets DROP CONSTRAINT pets_status_check');
    await t.dataSource.query(`INSERT INTO categories (id) VALUES (1)`);
    await t.dataSource.query(
      `INSERT INTO pets (name, category_id, status) VALUES ('Ghost', 1, 'lost')`,
    );
  });
  afterAll(async () => {
    await resetDatabase(t.dataSource);
    await t.dataSource.query(
      `ALTER TABLE pets ADD CONSTRAINT pets_status_check CHECK (status IN ('available', 'pending', 'sold'))`,
    );
    await t.close();
  });

  it('is a 500 internal_error that reveals nothing, with the rate-limit headers', async () => {
    const response = expectError(
      await apiClient(t.url, t.auth).get('/v1/pets'),
      500,
      'internal_error',
    );
    expect(response.body.message).toBe('An unexpected error occurred.');
    expect(response.body.message).not.toMatch(/lost|Error|\.ts|SELECT/);
    expect(response.headers['x-ratelimit-limit']).toBeDefined();
  });
});

describe('when the database becomes unreachable', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    const viaProxy = await databaseProxy();
    proxy = viaProxy.proxy;
    t = await startTestApp({
      DATABASE_URL: viaProxy.url,
      DATABASE_CONNECT_TIMEOUT_MS: '500',
    });
    api = apiClient(t.url, t.auth);
    // The key was issued a moment ago: each refresh of changed keys (every 2 s, looking 5 s back)
    // would learn it again and drop its trusted look-up, and a request after the cut would then
    // need the database to know it (a 503 before the limiter, without its headers). Issued long
    // ago, as a client's key is, it stays trusted.
    await t.dataSource.query(`UPDATE api_keys SET changed_at = changed_at - interval '1 hour'`);
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
  });

  it('answers 503 with Retry-After while it is down, and recovers by itself', async () => {
    expect((await api.get('/v1/pets')).status).toBe(200);

    proxy.cut();
    const started = Date.now();
    for (const response of [
      await api.get('/v1/pets'),
      await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }),
      await api.get('/v1/pets/1'),
    ]) {
      expectError(response, 503, 'service_unavailable');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.headers['x-ratelimit-limit']).toBeDefined();
    }
    // Three requests answered promptly (the connect timeout is 500 ms): an outage never hangs.
    expect(Date.now() - started).toBeLessThan(10_000);
    const ready = await request(t.url).get('/health/ready');
    expectError(ready, 503, 'service_unavailable');

    proxy.restore();
    expect((await api.get('/v1/pets')).status).toBe(200);
    expect((await request(t.url).get('/health/ready')).status).toBe(200);
  });
});
