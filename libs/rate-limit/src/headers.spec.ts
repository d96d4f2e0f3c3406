import { headerWindow, rateLimitHeaders, rateLimitPolicy, secondsUntil } from './headers';
import { windowsAt, windowStates } from './windows';

const at = (iso: string) => Date.parse(iso);

describe('fixed UTC windows', () => {
  it('aligns the minute and the day to UTC', () => {
    const { minute, day } = windowsAt(at('2026-11-22T13:45:17.250Z'));
    expect(new Date(minute.start).toISOString()).toBe('2026-11-22T13:45:00.000Z');
    expect(new Date(minute.end).toISOString()).toBe('2026-11-22T13:46:00.000Z');
    expect(new Date(day.start).toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(new Date(day.end).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('moves both windows at midnight', () => {
    const before = windowsAt(at('2026-11-22T23:59:59.999Z'));
    const after = windowsAt(at('2026-11-23T00:00:00.000Z'));
    expect(after.minute.start).toBe(before.minute.end);
    expect(after.day.start).toBe(before.day.end);
  });

  it('reports the remaining requests and the end of each window in Unix seconds', () => {
    const states = windowStates(
      at('2026-11-22T13:45:17Z'),
      { perMinute: 60, perDay: 1000 },
      10,
      500,
    );
    expect(states).toEqual([
      { name: 'minute', limit: 60, remaining: 50, resetAt: at('2026-11-22T13:46:00Z') / 1000 },
      { name: 'day', limit: 1000, remaining: 500, resetAt: at('2026-11-23T00:00:00Z') / 1000 },
    ]);
  });
});

describe('rate-limit headers', () => {
  const now = at('2026-11-22T13:45:17Z');

  it('describe the window with the fewest requests left', () => {
    const states = windowStates(now, { perMinute: 60, perDay: 1000 }, 10, 990);
    expect(headerWindow(states).name).toBe('day');
    expect(headerWindow(windowStates(now, { perMinute: 60, perDay: 1000 }, 59, 100)).name).toBe(
      'minute',
    );
  });

  it('on a tie, describe the window that ends later', () => {
    expect(headerWindow(windowStates(now, { perMinute: 5, perDay: 5 }, 5, 5)).name).toBe('day');
    expect(headerWindow(windowStates(now, { perMinute: 10, perDay: 20 }, 7, 17)).name).toBe('day');
  });

  it('give X-RateLimit-* and the IETF fields: the policy of both windows, what is left of the one nearest exhaustion', () => {
    expect(rateLimitHeaders(windowStates(now, { perMinute: 60, perDay: 1000 }, 1, 1), now)).toEqual(
      {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '59',
        'X-RateLimit-Reset': String(at('2026-11-22T13:46:00Z') / 1000),
        'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
        RateLimit: '"minute";r=59;t=43',
      },
    );
  });

  it('describe in RateLimit the window X-RateLimit-* describes, the day when it has fewer left or ties', () => {
    const dayNearer = rateLimitHeaders(
      windowStates(now, { perMinute: 60, perDay: 1000 }, 10, 990),
      now,
    );
    const untilMidnight = (at('2026-11-23T00:00:00Z') - now) / 1000;
    expect(dayNearer).toMatchObject({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '10',
      RateLimit: `"day";r=10;t=${untilMidnight}`,
    });
    const tie = rateLimitHeaders(windowStates(now, { perMinute: 5, perDay: 5 }, 5, 5), now);
    expect(tie.RateLimit).toBe(`"day";r=0;t=${untilMidnight}`);
  });

  it('build the policy once per limits object, and the same as from the windows', () => {
    const limits = { perMinute: 300, perDay: 10_000 };
    const policy = rateLimitPolicy(limits);
    expect(policy).toBe('"minute";q=300;w=60, "day";q=10000;w=86400');
    // Built once: a second response of the same limits object reads the first one's field.
    Object.assign(limits, { perMinute: 1 });
    expect(rateLimitPolicy(limits)).toBe(policy);
    expect(rateLimitPolicy({ perMinute: 1, perDay: 10_000 })).toBe(
      '"minute";q=1;w=60, "day";q=10000;w=86400',
    );
    const states = windowStates(now, { perMinute: 300, perDay: 10_000 }, 1, 1);
    expect(rateLimitHeaders(states, now, policy)).toEqual(rateLimitHeaders(states, now));
  });

  it('give whole seconds, at least one, until the window ends', () => {
    const resetAt = at('2026-11-22T13:46:00Z') / 1000;
    expect(secondsUntil(resetAt, at('2026-11-22T13:45:17Z'))).toBe(43);
    expect(secondsUntil(resetAt, at('2026-11-22T13:45:59.900Z'))).toBe(1);
    expect(secondsUntil(resetAt, at('2026-11-22T13:46:00Z'))).toBe(1);
  });
});
