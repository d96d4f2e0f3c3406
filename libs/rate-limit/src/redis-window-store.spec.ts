import Redis from 'ioredis';
import { MemoryWindowStore } from './memory-window-store';
import { RedisWindowStore } from './redis-window-store';
import { ResilientWindowStore, WindowStoreUnavailableError } from './resilient-window-store';
import { WindowStore } from './window-store';
import { windowsAt } from './windows';
import { windowStoreContract } from '@pet-adoption/rate-limit/testing';

// A test may first wait for the server's next minute (awayFromServerMinuteEnd).
jest.setTimeout(15_000);

// Runs against the run's real Redis (REDIS_URL, provided by the test setup).
const url = process.env.REDIS_URL!;
const prefix = `rate-limit-spec:${process.pid}:${Date.now()}:`;
const connections: Redis[] = [];
const open = (target: string) => {
  const redis = new Redis(target, {
    commandTimeout: 250,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 500,
  });
  redis.on('error', () => undefined);
  connections.push(redis);
  return redis;
};
/** A connection to the real Redis, once it is ready (commands are not queued before). */
const connect = async () => {
  const redis = open(url);
  await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
};
let n = 0;

/** The Redis server's time, in Unix ms: the clock the store places the windows by. */
async function serverNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** Waits, if need be, until the server's minute has 3 s left, so a test stays in one window. */
async function awayFromServerMinuteEnd(): Promise<void> {
  const left = 60_000 - ((await serverNow(await connect())) % 60_000);
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

afterAll(async () => {
  const redis = await connect();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  connections.forEach((c) => c.disconnect());
});

windowStoreContract(
  'RedisWindowStore',
  async () => new RedisWindowStore(await connect(), prefix),
  () => `subject-${n++}`,
  { awayFromMinuteEnd: awayFromServerMinuteEnd },
);

describe("RedisWindowStore clock: the server's", () => {
  beforeEach(awayFromServerMinuteEnd);

  /**
   * Two instances whose clocks say 1.5 s before and 1.5 s after the end of the server's minute
   * hit the same subject in turn; `limit` requests a minute.
   */
  async function skewedInstances(stores: [WindowStore, WindowStore], limit: number) {
    const boundary = windowsAt(await serverNow(await connect())).minute.end;
    const clocks = [boundary - 1_500, boundary + 1_500];
    const subject = `skew-${n++}`;
    const results = [];
    for (let i = 0; i < limit + 2; i++) {
      results.push(
        await stores[i % 2].hit({
          subject,
          limits: { perMinute: limit, perDay: 1_000 },
          now: clocks[i % 2],
          banThreshold: 1_000,
          banMs: 1_000,
        }),
      );
    }
    return { boundary, results };
  }

  it("shares one window between instances with skewed clocks, and answers the server's instant", async () => {
    const { boundary, results } = await skewedInstances(
      [
        new RedisWindowStore(await connect(), prefix),
        new RedisWindowStore(await connect(), prefix),
      ],
      10,
    );
    expect(results.map((r) => r.outcome)).toEqual([
      ...Array<string>(10).fill('admitted'),
      'limited',
      'limited',
    ]);
    for (const result of results) {
      expect(windowsAt(result.now).minute.end).toBe(boundary);
      expect(result.windows.find((w) => w.name === 'minute')!.resetAt).toBe(boundary / 1000);
    }
  });

  it("is what makes them share it: by the callers' clocks the same hits fall in two windows", async () => {
    const byCallers = new MemoryWindowStore();
    const { results } = await skewedInstances([byCallers, byCallers], 10);
    expect(results.every((r) => r.outcome === 'admitted')).toBe(true);
    expect(new Set(results.map((r) => r.windows[0].resetAt)).size).toBe(2);
  });

  it("names the counters by the server's minute and day, and expires them with those windows", async () => {
    const redis = await connect();
    const subject = `keys-${n++}`;
    const { now } = await new RedisWindowStore(redis, prefix).hit({
      subject,
      limits: { perMinute: 5, perDay: 5 },
      now: 0,
      banThreshold: 30,
      banMs: 1000,
    });
    const { minute, day } = windowsAt(now);
    const base = `${prefix}{${subject}}`;
    expect((await redis.keys(`${base}*`)).sort()).toEqual(
      [`${base}:d:${day.start}`, `${base}:m:${minute.start}`].sort(),
    );
    const minuteTtl = await redis.pttl(`${base}:m:${minute.start}`);
    expect(minuteTtl).toBeGreaterThan(minute.end - now);
    expect(minuteTtl).toBeLessThanOrEqual(minute.end - now + 5_000);
    expect(await redis.pttl(`${base}:d:${day.start}`)).toBeGreaterThan(day.end - now);
  });
});

describe('RedisWindowStore across instances', () => {
  it('admits exactly L out of hundreds of concurrent hits split over two connections, every time', async () => {
    const stores = [
      new RedisWindowStore(await connect(), prefix),
      new RedisWindowStore(await connect(), prefix),
    ];
    const now = Date.now();
    for (let round = 0; round < 5; round++) {
      await awayFromServerMinuteEnd();
      const subject = `exact-${round}`;
      const results = await Promise.all(
        Array.from({ length: 400 }, (_, i) =>
          stores[i % 2].hit({
            subject,
            limits: { perMinute: 50, perDay: 10_000 },
            now,
            banThreshold: 10_000,
            banMs: 1000,
          }),
        ),
      );
      expect(results.filter((r) => r.outcome === 'admitted')).toHaveLength(50);
      expect(results.filter((r) => r.outcome === 'limited')).toHaveLength(350);
    }
  });

  it('shares a ban between instances', async () => {
    const [a, b] = [
      new RedisWindowStore(await connect(), prefix),
      new RedisWindowStore(await connect(), prefix),
    ];
    await awayFromServerMinuteEnd();
    const now = Date.now();
    const hit = (store: RedisWindowStore) =>
      store.hit({
        subject: 'ban-shared',
        limits: { perMinute: 1, perDay: 10 },
        now,
        banThreshold: 1,
        banMs: 60_000,
      });
    await hit(a);
    await hit(a);
    expect((await hit(a)).outcome).toBe('banned');
    expect((await hit(b)).outcome).toBe('banned');
    await b.liftBan('ban-shared');
    expect(await a.bannedUntil('ban-shared', now)).toBeNull();
  });
});

describe('RedisWindowStore over data it did not write', () => {
  const limits = { perMinute: 3, perDay: 10 };
  const keysOf = async (redis: Redis, subject: string) => redis.keys(`${prefix}{${subject}}*`);

  it.each([
    ['a counter that is not a number', (redis: Redis, key: string) => redis.set(key, 'garbage')],
    [
      'a counter of another type',
      (redis: Redis, key: string) => redis.multi().del(key).hset(key, 'x', '1').exec(),
    ],
    ['a counter that is a fraction', (redis: Redis, key: string) => redis.set(key, '1.5')],
  ])('starts again from %s instead of failing', async (_, corrupt) => {
    await awayFromServerMinuteEnd();
    const redis = await connect();
    const store = new RedisWindowStore(redis, prefix);
    const subject = `corrupt-${n++}`;
    const now = Date.now();
    const hit = () => store.hit({ subject, limits, now, banThreshold: 30, banMs: 1000 });
    await hit();
    for (const key of await keysOf(redis, subject)) await corrupt(redis, key);
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push((await hit()).outcome);
    expect(outcomes).toEqual(['admitted', 'admitted', 'admitted', 'limited']);
  });
});

describe('when Redis is unreachable', () => {
  const hitRequest = {
    subject: 's',
    limits: { perMinute: 2, perDay: 10 },
    now: Date.now(),
    banThreshold: 30,
    banMs: 1000,
  };

  it('fails open: answers promptly, counting in the process', async () => {
    const store = new ResilientWindowStore(
      new RedisWindowStore(open('redis://127.0.0.1:1'), prefix),
      false,
    );
    const started = Date.now();
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await store.hit(hitRequest)).outcome);
    expect(outcomes).toEqual(['admitted', 'admitted', 'limited']);
    expect(store.degraded).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('fails closed when asked to', async () => {
    const store = new ResilientWindowStore(
      new RedisWindowStore(open('redis://127.0.0.1:1'), prefix),
      true,
    );
    await expect(store.hit(hitRequest)).rejects.toThrow(WindowStoreUnavailableError);
  });
});
