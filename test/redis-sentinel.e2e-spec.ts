import { apiClient, expectError, request, Response } from './support/http';
import { redisCli } from './support/peers/redis-cli';
import { RedisSentinel } from './support/peers/redis-sentinel';
import { startTestApp, TestApp } from './support/test-app';
import { describeWithPeer } from './support/peers/optional-peers';

// Starting the Sentinel setup takes seconds, and a failover more: the Sentinel promotes the
// replica, then reconfigures the old primary to follow it.
jest.setTimeout(90_000);

/** The service on a primary managed by a real Sentinel, with one replica, started for this file. */
describeWithPeer('redis-server and redis-cli', 'on a Sentinel-managed Redis', () => {
  let sentinel: RedisSentinel;
  let t: TestApp;

  beforeAll(async () => {
    sentinel = await RedisSentinel.start();
    t = await startTestApp({
      REDIS_SENTINELS: sentinel.sentinels,
      REDIS_SENTINEL_NAME: sentinel.name,
    });
  });
  afterAll(async () => {
    await t?.close();
    await sentinel?.stop();
  });

  it('counts on the primary the Sentinel names, and limits', async () => {
    // The day window: no minute boundary can interfere, however long the test takes.
    const { id, auth } = await t.issueKey({ limits: { perMinute: 3, perDay: 3 } });
    const api = apiClient(t.url, auth);
    for (let i = 0; i < 3; i++) expect((await api.get('/v1/pets')).status).toBe(200);
    expectError(await api.get('/v1/pets'), 429, 'rate_limited');
    const keys = await redisCli(
      await sentinel.primaryPort(),
      'keys',
      `${t.config.rateLimit.redisKeyPrefix}{key:${id}}:*`,
    );
    // The minute and day counters, and the refusal of the fourth request.
    expect(
      keys
        .trim()
        .split('\n')
        .map((key) => key.split(':').at(-2)),
    ).toEqual(expect.arrayContaining(['m', 'd', 'r']));
    expect((await request(t.url).get('/health/ready')).body.checks.redis).toBe('up');
  });

  it('follows a failover without a restart: answers throughout, then limits on the new primary with the counts replicated', async () => {
    // The headers show the day's count (never more left than the minute's), and the day does not
    // end during the test, however long the failover takes.
    const { auth } = await t.issueKey({ limits: { perMinute: 10, perDay: 10 } });
    const api = apiClient(t.url, auth);
    for (let i = 0; i < 4; i++) expect((await api.get('/v1/pets')).status).toBe(200);

    // Other clients keep calling while the Sentinel moves the primary.
    let failingOver = true;
    const during: Response[] = [];
    const traffic = (async () => {
      while (failingOver) {
        during.push(await apiClient(t.url, t.auth).get('/v1/pets?limit=1'));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const { from, to } = await sentinel.failover();
    failingOver = false;
    await traffic;
    expect(to).not.toBe(from);
    expect(during.length).toBeGreaterThan(0);
    for (const response of during) {
      // Fail-open: counted per instance while no primary answers, never refused for it.
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeDefined();
    }

    // The 4 requests counted before the failover were replicated: the day goes on from there.
    const after: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await api.get('/v1/pets');
      expect(response.status).toBe(200);
      after.push(response.headers['x-ratelimit-remaining']);
    }
    expect(after).toEqual(['5', '4', '3', '2', '1', '0']);
    expectError(await api.get('/v1/pets'), 429, 'rate_limited');
    expect((await request(t.url).get('/health/ready')).body.checks.redis).toBe('up');
  });
});
