import { apiClient } from './http';
import { TestApp } from './test-app';

/**
 * Waits, if need be, until the current UTC minute has at least `seconds` left, so that a test
 * counting requests within one minute window cannot straddle two. The caller's timeout must
 * allow for the wait.
 */
export async function awayFromMinuteEnd(seconds = 5): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * Three rounds of 300 concurrent requests on one key of limit 40, spread over `instances`: every
 * round, exactly 40 are admitted and the others refused.
 */
export async function expectExactAdmission(instances: TestApp[]): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await awayFromMinuteEnd();
    const limit = 40;
    const { auth } = await instances[0].issueKey({
      limits: { perMinute: limit, perDay: 100_000 },
    });
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        apiClient(instances[i % instances.length].url, auth).get('/v1/pets?limit=1'),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(300 - limit);
  }
}
