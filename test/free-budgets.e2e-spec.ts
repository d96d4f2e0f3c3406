import { randomUUID } from 'node:crypto';
import { redisKeyPrefix } from './support/confinement';
import { apiClient, expectError, request, Response } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd, EXACT_ADMISSION_ENV } from './support/windows';

/**
 * CONTRACT.md "Trust, round 4 (v1.4)", "Free is not unlimited", on two instances sharing Redis:
 * 304 answers stay off the plan's budget but count in a conditional budget of 10× the per-minute
 * limit (429 beyond), and `GET /v1/keys/self` has a budget of its own of 120 a minute per key.
 * Both exact across instances, as the plans' budgets are: requests are sent all at once, half to
 * each instance, and exactly the budget is admitted.
 */
// Each test may first wait for the next minute window (awayFromMinuteEnd).
jest.setTimeout(90_000);

const byStatus = (responses: Response[]) => {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

describe('free answers have budgets of their own, on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let petPath: string;

  beforeAll(async () => {
    const env = {
      ...EXACT_ADMISSION_ENV,
      REDIS_KEY_PREFIX: `${redisKeyPrefix()}free-budgets:${randomUUID()}:`,
    };
    a = await startTestApp(env);
    b = await startTestApp(env);
    const created = await request(a.url)
      .post('/v1/pets')
      .set(a.auth)
      .send({ name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    petPath = `/v1/pets/${created.body.id}`;
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  /** A key of a small per-minute limit, known on both instances. */
  const smallKey = async (perMinute: number) =>
    (await a.issueKey({ scopes: ['pets:read'], limits: { perMinute, perDay: 100_000 } })).auth;

  /** `count` requests at once, alternately to each instance. */
  const burst = (count: number, send: (instance: TestApp) => Promise<Response>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(i % 2 === 0 ? a : b)));

  describe('conditional reads', () => {
    it('answers 304s up to 10× the per-minute limit a minute, then 429, leaving the plan budget untouched', async () => {
      await awayFromMinuteEnd(20);
      const auth = await smallKey(6);
      const first = await request(a.url).get(petPath).set(auth);
      expect(first.status).toBe(200);
      expect(first.headers['x-ratelimit-remaining']).toBe('5');
      const etag = first.headers.etag;

      const answers = await burst(80, (instance) =>
        request(instance.url).get(petPath).set(auth).set('if-none-match', etag),
      );
      expect(byStatus(answers)).toEqual({ 304: 60, 429: 20 });
      for (const answer of answers.filter(({ status }) => status === 304)) {
        // A 304 tells the plan's budget as it stands: still 5 left of 6.
        expect(answer.headers['x-ratelimit-remaining']).toBe('5');
      }
      const refused = expectError(
        answers.find(({ status }) => status === 429)!,
        429,
        'rate_limited',
      );
      expect(refused.body.message).toMatch(/limit of 60 conditional requests/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.headers['x-ratelimit-limit']).toBe('60');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');

      // The plan's budget is as the one counted read left it, on either instance.
      const plain = await request(b.url).get(petPath).set(auth);
      expect(plain.status).toBe(200);
      expect(plain.headers['x-ratelimit-remaining']).toBe('4');
      // Another key's conditional budget is its own.
      const other = await smallKey(6);
      expect((await request(b.url).get(petPath).set(other).set('if-none-match', etag)).status).toBe(
        304,
      );
    });

    it('counts a conditional read that is answered 200 in its plan too, as before', async () => {
      await awayFromMinuteEnd(10);
      const auth = await smallKey(3);
      const stale = await request(a.url).get(petPath).set(auth).set('if-none-match', '"stale"');
      expect(stale.status).toBe(200);
      expect(stale.headers['x-ratelimit-remaining']).toBe('2');
      expect(stale.headers['x-ratelimit-limit']).toBe('3');
    });
  });

  describe('GET /v1/keys/self', () => {
    it('answers 120 a minute per key, then 429 with its budget and Retry-After, apart from the plan', async () => {
      await awayFromMinuteEnd(20);
      const auth = await smallKey(5);
      const answers = await burst(140, (instance) =>
        apiClient(instance.url, auth).get('/v1/keys/self'),
      );
      expect(byStatus(answers)).toEqual({ 200: 120, 429: 20 });
      const refused = expectError(
        answers.find(({ status }) => status === 429)!,
        429,
        'rate_limited',
      );
      expect(refused.body.message).toMatch(/limit of 120 getOwnKey requests/);
      expect(refused.headers['x-ratelimit-limit']).toBe('120');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The answers tell the plan's budget, which asking never spends.
      const answered = answers.find(({ status }) => status === 200)!;
      expect(answered.body.usage.minute).toEqual({
        limit: 5,
        remaining: 5,
        reset: expect.any(Number),
      });
      expect((await apiClient(b.url, auth).get('/v1/pets?limit=1')).status).toBe(200);
      // Another key's own view is its own budget.
      expect((await apiClient(b.url, await smallKey(5)).get('/v1/keys/self')).status).toBe(200);
    });
  });
});
