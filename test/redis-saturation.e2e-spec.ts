import { ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { apiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';
import { redisKeyPrefix } from './support/confinement';

// Three rounds, each of which may first wait for the next minute window.
jest.setTimeout(120_000);

/** A child process that keeps one core busy for at most `ms`, whatever happens to the test. */
function busyCore(ms: number): ChildProcess {
  return spawn(
    process.execPath,
    ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`],
    {
      stdio: 'ignore',
    },
  );
}

/**
 * Exactness while the machine is saturated (docs/adr/0024): replies from Redis come late on every
 * instance at once. A late reply is answered 503, never counted per instance, so no more than the
 * limit is admitted across instances. The command timeout is short here so that replies are
 * certainly late; counted per instance instead, each instance admitted up to the limit again.
 */
describe('two instances on a saturated machine', () => {
  const limit = 50;
  let instances: TestApp[];
  let busy: ChildProcess[] = [];

  beforeAll(async () => {
    const prefix = `${redisKeyPrefix()}saturated:${process.pid}:${Date.now()}:`;
    instances = await Promise.all(
      [0, 1].map(() => startTestApp({ REDIS_KEY_PREFIX: prefix, REDIS_COMMAND_TIMEOUT_MS: '20' })),
    );
  });
  afterAll(async () => {
    for (const child of busy) child.kill('SIGKILL');
    await Promise.all(instances.map((t) => t.close()));
  });

  it('admit at most L of 600 concurrent requests, every round, and refuse the rest with Retry-After', async () => {
    for (let round = 0; round < 3; round++) {
      await awayFromMinuteEnd(20);
      const { auth } = await instances[0].issueKey({
        limits: { perMinute: limit, perDay: 100_000 },
      });
      busy = Array.from({ length: cpus().length + 1 }, () => busyCore(30_000));
      const responses = await Promise.all(
        Array.from({ length: 600 }, (_, i) =>
          apiClient(instances[i % 2].url, auth).get('/v1/pets?limit=1'),
        ),
      );
      for (const child of busy) child.kill('SIGKILL');
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(limit);
      for (const refused of responses.filter((r) => r.status !== 200)) {
        expect([429, 503]).toContain(refused.status);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    }
  });
});
