import { decide, JITTER, jittered, outcomeOf, retryAfterSeconds } from './delivery';

const SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
const answer = (responseStatus: number, retryAfter?: number) => ({
  responseStatus,
  error: null,
  durationMs: 10,
  retryAfterSeconds: retryAfter,
});

describe('the delivery rules', () => {
  it('succeeds on a 2xx answer only', () => {
    expect([200, 201, 204, 299].map((s) => outcomeOf(answer(s)))).toEqual(
      Array(4).fill('succeeded'),
    );
    for (const status of [100, 301, 302, 307, 400, 404, 410, 429, 500, 503]) {
      expect(outcomeOf(answer(status))).toBe('failed');
    }
    expect(outcomeOf({ responseStatus: null, error: 'timeout', durationMs: 1 })).toBe('failed');
  });

  it('waits each delay of the schedule within ±20 %, reaching both bounds', () => {
    expect(JITTER).toBe(0.2);
    for (const [step, seconds] of SCHEDULE.entries()) {
      const low = decide(answer(500), step + 1, SCHEDULE, () => 0).retryInSeconds!;
      const high = decide(
        answer(500),
        step + 1,
        SCHEDULE,
        () => 1 - Number.EPSILON,
      ).retryInSeconds!;
      expect(low).toBeCloseTo(seconds * 0.8, 6);
      expect(high).toBeCloseTo(seconds * 1.2, 3);
      expect(high).toBeLessThanOrEqual(seconds * 1.2);
    }
    const samples = Array.from({ length: 10_000 }, () => jittered(300, Math.random));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(240);
    expect(Math.max(...samples)).toBeLessThan(360);
    // Spread over the whole range, not bunched at the middle.
    expect(samples.filter((s) => s < 260).length).toBeGreaterThan(1000);
    expect(samples.filter((s) => s > 340).length).toBeGreaterThan(1000);
  });

  it('gives up after the last delay: ten attempts in all with the default schedule', () => {
    expect(decide(answer(500), 9, SCHEDULE, () => 0.5).retryInSeconds).toBe(86400);
    expect(decide(answer(500), 10, SCHEDULE, () => 0.5)).toEqual({
      outcome: 'failed',
      retryInSeconds: null,
      gone: false,
    });
    expect(decide(answer(204), 1, SCHEDULE, () => 0.5)).toEqual({
      outcome: 'succeeded',
      retryInSeconds: null,
      gone: false,
    });
  });

  it("lets a 429's or 503's Retry-After delay the next attempt, by at most an hour", () => {
    expect(decide(answer(429, 600), 1, SCHEDULE, () => 0.5).retryInSeconds).toBe(600);
    expect(decide(answer(503, 600), 1, SCHEDULE, () => 0.5).retryInSeconds).toBe(600);
    expect(decide(answer(429, 999_999), 1, SCHEDULE, () => 0.5).retryInSeconds).toBe(3600);
    // Never earlier than the schedule, and only for 429 and 503.
    expect(decide(answer(429, 1), 2, SCHEDULE, () => 0.5).retryInSeconds).toBe(300);
    expect(decide(answer(500, 600), 1, SCHEDULE, () => 0.5).retryInSeconds).toBe(5);
  });

  it('marks a 410 gone', () => {
    expect(decide(answer(410), 1, SCHEDULE, () => 0.5)).toMatchObject({
      gone: true,
      outcome: 'failed',
    });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds('Tue, 24 Nov 2026 12:10:00 GMT', now)).toBe(600);
    expect(retryAfterSeconds('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
