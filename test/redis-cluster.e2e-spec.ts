import { Cluster } from 'ioredis';
import { apiClient, expectError, request, Response } from './support/http';
import { RedisCluster } from './support/peers/redis-cluster';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd, EXACT_ADMISSION_ENV, expectExactAdmission } from './support/windows';
import { describeWithPeer } from './support/peers/optional-peers';

// Starting the cluster takes a few seconds; a test may first wait for the next minute window.
jest.setTimeout(30_000);

const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';

/** The service on a real Redis Cluster of three primaries, started for this file. */
describeWithPeer('redis-server and redis-cli', 'on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let redis: Cluster;
  let prefix: string;
  let instances: TestApp[];

  beforeAll(async () => {
    cluster = await RedisCluster.start(3);
    redis = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
    await new Promise((resolve) => redis.once('ready', resolve));
    prefix = `pet-adoption-cluster:${process.pid}:${Date.now()}:`;
    // Two instances sharing the cluster and the key prefix, as in production.
    instances = await Promise.all(
      [0, 1].map(() =>
        startTestApp({
          ...EXACT_ADMISSION_ENV,
          REDIS_CLUSTER_NODES: cluster.nodes,
          REDIS_KEY_PREFIX: prefix,
          ADMIN_TOKEN,
          BAN_THRESHOLD: '3',
          BAN_SECONDS: '120',
        }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.close()));
    redis?.disconnect();
    await cluster?.stop();
  });

  /** The cluster's time in Unix ms: the clock the windows follow. */
  async function serverNow(): Promise<number> {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  /** The limiter's keys on each primary, by the primary's port. */
  async function keysByPrimary(): Promise<Map<number, string[]>> {
    const primaries = redis.nodes('master');
    const keys = await Promise.all(primaries.map((node) => node.keys(`${prefix}*`)));
    return new Map(primaries.map((node, i) => [node.options.port!, keys[i]]));
  }

  it('reports Redis up when every primary answers', async () => {
    const ready = await request(instances[0].url).get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.redis).toBe('up');
  });

  it('has two instances admit exactly L of several hundred concurrent requests, every time', () =>
    expectExactAdmission(instances));

  it("spreads the subjects over the primaries, and keeps each subject's keys in one slot", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { id, auth } = await instances[0].issueKey();
      ids.push(id);
      expect((await apiClient(instances[i % 2].url, auth).get('/v1/pets?limit=1')).status).toBe(
        200,
      );
    }
    const byPrimary = await keysByPrimary();
    for (const id of ids) {
      const holders = [...byPrimary].filter(([, keys]) =>
        keys.some((key) => key.startsWith(`${prefix}{key:${id}}:`)),
      );
      // The minute and day counters of one key, on one primary, in one slot.
      expect(holders).toHaveLength(1);
      const keys = holders[0][1].filter((key) => key.startsWith(`${prefix}{key:${id}}:`));
      expect(keys).toHaveLength(2);
      const slots = await Promise.all(keys.map((key) => redis.cluster('KEYSLOT', key)));
      expect(new Set(slots).size).toBe(1);
    }
    const holding = [...byPrimary.values()].filter((keys) =>
      ids.some((id) => keys.some((key) => key.startsWith(`${prefix}{key:${id}}:`))),
    );
    expect(holding.length).toBeGreaterThan(1);
  });

  it("gives the headers of the server's minute on every instance, and Retry-After until it ends", async () => {
    await awayFromMinuteEnd();
    const { auth } = await instances[0].issueKey({ limits: { perMinute: 4, perDay: 1000 } });
    const minuteEnd = Math.floor((await serverNow()) / 60_000) * 60 + 60;
    const responses: Response[] = [];
    for (let i = 0; i < 4; i++)
      responses.push(await apiClient(instances[i % 2].url, auth).get('/v1/pets'));
    responses.forEach((response, i) => {
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'x-ratelimit-limit': '4',
        'x-ratelimit-remaining': String(3 - i),
        'x-ratelimit-reset': String(minuteEnd),
        'ratelimit-policy': '"minute";q=4;w=60, "day";q=1000;w=86400',
      });
      expect(response.headers.ratelimit).toMatch(new RegExp(`^"minute";r=${3 - i};t=\\d+$`));
    });
    const refused = expectError(
      await apiClient(instances[1].url, auth).get('/v1/pets'),
      429,
      'rate_limited',
    );
    expect(refused.headers['x-ratelimit-reset']).toBe(String(minuteEnd));
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(Math.abs((await serverNow()) / 1000 + retryAfter - minuteEnd)).toBeLessThanOrEqual(1.5);
  });

  it('lets the day window take over, shared by both instances', async () => {
    await awayFromMinuteEnd();
    const { auth } = await instances[0].issueKey({ limits: { perMinute: 6, perDay: 6 } });
    for (let i = 0; i < 6; i++)
      expect((await apiClient(instances[i % 2].url, auth).get('/v1/pets')).status).toBe(200);
    const dayEnd = Math.floor((await serverNow()) / 86_400_000) * 86_400 + 86_400;
    for (const instance of instances) {
      const refused = expectError(
        await apiClient(instance.url, auth).get('/v1/pets'),
        429,
        'rate_limited',
      );
      // Both spent: the refusal, and the headers, name the window that ends later.
      expect(refused.body.message).toMatch(/per-day limit of 6/);
      expect(refused.headers['x-ratelimit-reset']).toBe(String(dayEnd));
      expect(refused.headers.ratelimit).toMatch(/^"day";r=0;t=\d+$/);
    }
  });

  it('bans a key on one instance, shows the ban on the other, and lifts it through the admin API', async () => {
    await awayFromMinuteEnd(10);
    const { id, auth } = await instances[0].issueKey({ limits: { perMinute: 2, perDay: 1000 } });
    const [a, b] = instances.map((instance) => apiClient(instance.url, auth));
    const admin = apiClient(instances[1].url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    await a.get('/v1/pets');
    await b.get('/v1/pets');
    for (let i = 0; i < 3; i++) expectError(await a.get('/v1/pets'), 429, 'rate_limited');
    // The fourth refusal within the minute passes BAN_THRESHOLD=3.
    const banned = expectError(await b.get('/v1/pets'), 429, 'key_temporarily_banned');
    expect(Number(banned.headers['retry-after'])).toBeGreaterThan(110);
    expectError(await a.get('/v1/pets'), 429, 'key_temporarily_banned');

    const listed = async () =>
      (await admin.get('/admin/api-keys')).body.find((k: { id: number }) => k.id === Number(id));
    expect(Date.parse((await listed()).bannedUntil)).toBeGreaterThan(Date.now() + 100_000);
    expect((await admin.delete(`/admin/api-keys/${id}/ban`)).status).toBe(204);
    expect((await listed()).bannedUntil).toBeNull();
    // No longer banned on either instance; the minute window is still spent.
    expectError(await a.get('/v1/pets'), 429, 'rate_limited');
    expectError(await b.get('/v1/pets'), 429, 'rate_limited');
  });
});
