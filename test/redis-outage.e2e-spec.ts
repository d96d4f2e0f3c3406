import { apiClient, expectError, request } from './support/http';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';

// The Redis of the run (REDIS_URL, provided by the test setup), reached through a proxy to cut.
const redis = new URL(process.env.REDIS_URL!);

describe.each([
  ['fail-open (default)', 'false'],
  ['fail-closed', 'true'],
])('when Redis becomes unreachable, %s', (_, failClosed) => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    proxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
    const viaProxy = new URL(redis.toString());
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    t = await startTestApp({ REDIS_URL: viaProxy.toString(), RATE_LIMIT_FAIL_CLOSED: failClosed });
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
  });

  it('answers promptly while it is down, reports it, and recovers by itself', async () => {
    const api = apiClient(t.url, t.auth);
    expect((await api.get('/v1/pets')).status).toBe(200);

    proxy.cut();
    const started = Date.now();
    const during = await api.get('/v1/pets');
    expect(Date.now() - started).toBeLessThan(2000);
    const ready = await request(t.url).get('/health/ready');
    if (failClosed === 'true') {
      expectError(during, 503, 'service_unavailable');
      expect(Number(during.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expectError(ready, 503, 'service_unavailable');
      expect(ready.body.message).toMatch(/redis/);
    } else {
      // Counted per instance meanwhile: still limited, still with headers.
      expect(during.status).toBe(200);
      expect(during.headers['x-ratelimit-limit']).toBeDefined();
      expect(ready.status).toBe(200);
      expect(ready.body.checks.redis).toBe('down');
    }

    proxy.restore();
    const deadline = Date.now() + 5000;
    let recovered = false;
    while (!recovered && Date.now() < deadline) {
      const response = await api.get('/v1/pets');
      const health = await request(t.url).get('/health/ready');
      recovered = response.status === 200 && health.body.checks?.redis === 'up';
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(true);
  });
});
