import { Logger } from '@nestjs/common';
import { Cluster, Redis } from 'ioredis';
import { apiClient, expectError, request } from './support/http';
import { redisProxy, TcpProxy } from './support/tcp-proxy';
import { connectRunRedis, keysMatching } from './support/run-redis';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';

// A test may first wait for the next minute window (awayFromMinuteEnd).
jest.setTimeout(20_000);

describe.each([
  ['fail-open (default)', 'false'],
  ['fail-closed', 'true'],
])('when Redis becomes unreachable, %s', (_, failClosed) => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    let viaProxy: string;
    ({ proxy, url: viaProxy } = await redisProxy());
    t = await startTestApp({ REDIS_URL: viaProxy, RATE_LIMIT_FAIL_CLOSED: failClosed });
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
    expect((await request(t.url).get('/metrics')).text).toMatch(/^rate_limit_redis_up 0$/m);
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
    expect((await request(t.url).get('/metrics')).text).toMatch(/^rate_limit_redis_up 1$/m);
  });
});

describe('when Redis replies late while the connection is up (docs/adr/0024)', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    let viaProxy: string;
    ({ proxy, url: viaProxy } = await redisProxy());
    // Fail-open: a late reply must not open the per-instance fallback all the same.
    t = await startTestApp({ REDIS_URL: viaProxy, REDIS_COMMAND_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
  });

  it('answers 503 with Retry-After 1, admits nothing uncounted, logs no outage, and serves once replies come', async () => {
    const api = apiClient(t.url, t.auth);
    expect((await api.get('/v1/pets')).status).toBe(200);
    const errors = jest.spyOn(Logger.prototype, 'error');

    proxy.stall();
    const during = await Promise.all([api.get('/v1/pets'), api.get('/v1/pets')]);
    for (const response of during) {
      expectError(response, 503, 'service_unavailable');
      expect(response.headers['retry-after']).toBe('1');
    }
    expect(errors.mock.calls.flat().join(' ')).not.toMatch(/unreachable/);
    expect((await request(t.url).get('/health/ready')).body.checks?.redis).not.toBe('memory');

    proxy.resume();
    const deadline = Date.now() + 5000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await api.get('/v1/pets')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    errors.mockRestore();
  });
});

describe('when a Redis key holds data the limiter never wrote', () => {
  let t: TestApp;
  let redisClient: Redis | Cluster;
  beforeAll(async () => {
    t = await startTestApp();
    redisClient = connectRunRedis();
  });
  afterAll(async () => {
    redisClient.disconnect();
    await t.close();
  });

  it('keeps counting the subject, and neither reports nor logs an outage', async () => {
    await awayFromMinuteEnd();
    const { id, auth } = await t.issueKey({ limits: { perMinute: 3, perDay: 100 } });
    const api = apiClient(t.url, auth);
    expect((await api.get('/v1/pets')).status).toBe(200);
    const keys = await keysMatching(
      redisClient,
      `${t.config.rateLimit.redisKeyPrefix}{key:${id}}:*`,
    );
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) await redisClient.set(key, 'not a counter');
    const logged = jest.spyOn(Logger.prototype, 'error');

    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get('/v1/pets')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await request(t.url).get('/health/ready')).body.checks.redis).toBe('up');
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe('at start-up', () => {
  let proxy: TcpProxy;
  let viaProxy: string;
  beforeEach(async () => {
    ({ proxy, url: viaProxy } = await redisProxy());
  });
  afterEach(() => proxy.stop());

  it('starts while Redis is down, counts in the process meanwhile, and connects once it comes', async () => {
    proxy.cut();
    const t = await startTestApp({ REDIS_URL: viaProxy });
    try {
      const api = apiClient(t.url, t.auth);
      const during = await api.get('/v1/pets');
      expect(during.status).toBe(200);
      expect(during.headers['x-ratelimit-limit']).toBeDefined();
      expect((await request(t.url).get('/health/ready')).body.checks.redis).toBe('down');

      proxy.restore();
      const deadline = Date.now() + 5000;
      let up = false;
      while (!up && Date.now() < deadline) {
        up = (await request(t.url).get('/health/ready')).body.checks?.redis === 'up';
        if (!up) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(up).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('leaves no connection to Redis open when the application fails to start', async () => {
    // Nothing listens on port 1: the database is unreachable and the application cannot start.
    await expect(
      startTestApp({ REDIS_URL: viaProxy, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }),
    ).rejects.toThrow();
    // Past the second a connection may wait for Redis to be ready.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await proxy.connections()).toBe(0);
  });
});
