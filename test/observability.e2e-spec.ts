import { apiClient, request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

describe('observability', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'log', LOG_FORMAT: 'json' });
  });
  afterAll(() => t.close());

  it('logs one JSON line per request with its route, status, duration, request id and key id, never the key', async () => {
    const lines: string[] = [];
    const spy = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        return true;
      });
    try {
      const { id, key, auth } = await t.issueKey();
      await apiClient(t.url, { ...auth, 'x-request-id': 'trace-42' }).get('/v1/pets?limit=3');
      await new Promise((resolve) => setTimeout(resolve, 50));
      spy.mockRestore();
      const entries = lines.map((line) => JSON.parse(line) as { message?: { msg?: string } });
      const logged = entries.find((e) => e.message?.msg === 'request');
      expect(logged?.message).toEqual({
        msg: 'request',
        method: 'GET',
        route: '/v1/pets',
        status: 200,
        durationMs: expect.any(Number),
        requestId: 'trace-42',
        keyId: id,
      });
      expect(lines.join('\n')).not.toContain(key.slice(13));
      expect(lines.join('\n').toLowerCase()).not.toContain('authorization');
    } finally {
      spy.mockRestore();
    }
  });

  it('serves Prometheus metrics by operation and status, rate-limit decisions, the pool and Redis', async () => {
    const api = apiClient(t.url, t.auth);
    await api.get('/v1/pets');
    await api.get('/v1/pets/999999');
    await apiClient(t.url).get('/v1/pets');
    const response = await request(t.url).get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    expect(response.text).toMatch(
      /http_requests_total\{operation="GET \/v1\/pets",status="200"\} [1-9]/,
    );
    expect(response.text).toMatch(
      /http_requests_total\{operation="GET \/v1\/pets\/:petId",status="404"\} [1-9]/,
    );
    expect(response.text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",operation="GET \/v1\/pets",status="200"\}/,
    );
    expect(response.text).toMatch(/rate_limit_decisions_total\{decision="admitted"\} [1-9]/);
    expect(response.text).toMatch(/db_pool_connections\{state="total"\} \d+/);
    expect(response.text).toMatch(/^rate_limit_redis_up 1$/m);
  });

  it('reports no Redis health when the limits live in the process', async () => {
    const memory = await startTestApp({ REDIS_URL: '' });
    try {
      const response = await request(memory.url).get('/metrics');
      expect(response.text).toContain('db_pool_connections');
      expect(response.text).not.toContain('rate_limit_redis_up');
    } finally {
      await memory.close();
    }
  });
});
