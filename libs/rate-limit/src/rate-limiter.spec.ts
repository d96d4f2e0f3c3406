import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SkipThrottle } from '@nestjs/throttler';
import { MemoryWindowStore } from './memory-window-store';
import { resolveRateLimitOptions } from './rate-limit.options';
import { RateLimiter, RateLimitReply, skipsThrottle } from './rate-limiter';

@Controller()
class Limited {
  @Get() open(): void {}
  @SkipThrottle() @Get() exempt(): void {}
  @SkipThrottle({ default: false }) @Get() counted(): void {}
}

@SkipThrottle()
@Controller()
class Exempt {
  @Get() any(): void {}
  @SkipThrottle({ default: false }) @Get() counted(): void {}
}

describe('skipsThrottle', () => {
  const reflector = new Reflector();
  const skips = (controller: { prototype: object }, method: string) =>
    skipsThrottle(reflector, (controller.prototype as Record<string, object>)[method], controller);

  it("reads @SkipThrottle() as @nestjs/throttler's own guard does: the handler's word first", () => {
    expect(skips(Limited, 'open')).toBe(false);
    expect(skips(Limited, 'exempt')).toBe(true);
    expect(skips(Limited, 'counted')).toBe(false);
    expect(skips(Exempt, 'any')).toBe(true);
    expect(skips(Exempt, 'counted')).toBe(false);
  });
});

describe('RateLimiter.describe', () => {
  const at = Date.UTC(2026, 10, 25, 18, 0, 30);
  const limiter = new RateLimiter(
    new MemoryWindowStore(),
    { now: () => at },
    resolveRateLimitOptions({}),
  );
  const subject = { id: 'key:k1', limits: { perMinute: 5, perDay: 100 } };
  const headersOf = async (act: (reply: RateLimitReply) => Promise<void>) => {
    const headers: Record<string, string> = {};
    await act({ header: (name, value) => (headers[name] = value) });
    return headers;
  };

  it('writes the headers of the windows as they stand, counting nothing', async () => {
    await headersOf((reply) => limiter.limit({ ip: '192.0.2.1' }, reply, subject));
    const described = await headersOf((reply) => limiter.describe(reply, subject));
    expect(described).toEqual({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '4',
      'X-RateLimit-Reset': String(Date.UTC(2026, 10, 25, 18, 1, 0) / 1000),
      'RateLimit-Policy': '"minute";q=5;w=60, "day";q=100;w=86400',
      RateLimit: '"minute";r=4;t=30',
    });
    expect(await headersOf((reply) => limiter.describe(reply, subject))).toEqual(described);
    const counted = await headersOf((reply) => limiter.limit({ ip: '192.0.2.1' }, reply, subject));
    expect(counted['X-RateLimit-Remaining']).toBe('3');
  });
});

describe('RateLimiter.limit, for a budget apart from the plan', () => {
  const limiter = new RateLimiter(
    new MemoryWindowStore(),
    { now: () => Date.UTC(2026, 10, 25, 18, 0, 30) },
    resolveRateLimitOptions({}),
  );
  const reply: RateLimitReply = { header: () => undefined };

  it('names the budget in its refusal, and counts it apart from the subject of the plan', async () => {
    const budget = { id: 'key:k1:self', limits: { perMinute: 2, perDay: 2880 }, budget: 'self' };
    await limiter.limit({ ip: '192.0.2.1' }, reply, budget);
    await limiter.limit({ ip: '192.0.2.1' }, reply, budget);
    await expect(limiter.limit({ ip: '192.0.2.1' }, reply, budget)).rejects.toMatchObject({
      response: { code: 'rate_limited', message: expect.stringMatching(/of 2 self requests/) },
    });
    const plan = { id: 'key:k1', limits: { perMinute: 2, perDay: 100 } };
    await expect(limiter.limit({ ip: '192.0.2.1' }, reply, plan)).resolves.toBeUndefined();
  });
});
