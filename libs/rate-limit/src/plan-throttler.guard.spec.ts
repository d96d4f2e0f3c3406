import { Controller, Get, HttpException, Injectable } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { Test } from '@nestjs/testing';
import { SkipThrottle } from '@nestjs/throttler';
import { RateLimitClock } from './clock';
import { PlanThrottlerGuard } from './plan-throttler.guard';
import { RateLimitModule } from './rate-limit.module';
import {
  RateLimitSubject,
  RateLimitSubjectResolver,
  UnverifiedSubject,
} from './rate-limit-subject.resolver';
import { HitRequest, HitResult, WindowStore, WindowsNow } from './window-store';
import { windowStates } from './windows';

/** Keys the resolver can only name by a costly check, and how often it was asked to. */
const verifications: string[] = [];

@Injectable()
class KeyHeaderResolver extends RateLimitSubjectResolver {
  async resolve(request: {
    headers: { key?: string; unverified?: string };
  }): Promise<RateLimitSubject | UnverifiedSubject | null> {
    const { key, unverified } = request.headers;
    if (unverified) {
      return new UnverifiedSubject(
        async () => {
          verifications.push(unverified);
          return /^(valid|vouched)/.test(unverified)
            ? { id: `key:${unverified}`, limits: { perMinute: 5, perDay: 100 } }
            : null;
        },
        // A client that turns out to be known after all (a key issued elsewhere a moment ago).
        async () => unverified.startsWith('vouched'),
      );
    }
    return key ? { id: `key:${key}`, limits: { perMinute: 2, perDay: 100 } } : null;
  }
}

@Controller()
class Limited {
  @Get() open(): void {}
  @SkipThrottle() @Get() exempt(): void {}
}

@SkipThrottle()
@Controller()
class Exempt {
  @Get() any(): void {}
}

describe('PlanThrottlerGuard', () => {
  let guard: PlanThrottlerGuard;
  let keys = 0;

  beforeEach(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        RateLimitModule.forRootAsync({
          resolver: KeyHeaderResolver,
          useFactory: () => ({ anonymousLimits: { perMinute: 1, perDay: 100 } }),
        }),
      ],
    }).compile();
    await moduleRef.init();
    guard = moduleRef.get(PlanThrottlerGuard);
  });

  /** Runs the guard for a handler of a controller; returns its verdict and the headers it wrote. */
  async function call(
    controller: object,
    handler: string,
    key?: string,
    header: 'key' | 'unverified' = 'key',
  ) {
    const headers: Record<string, string> = {};
    const request = { ip: '192.0.2.1', headers: key ? { [header]: key } : {} };
    const response = { header: (name: string, value: string) => (headers[name] = value) };
    const type = (controller as { constructor: new () => object }).constructor;
    const context = new ExecutionContextHost(
      [request, response],
      type,
      (controller as Record<string, () => void>)[handler],
    );
    try {
      return { admitted: await guard.canActivate(context), headers };
    } catch (error) {
      return { refused: (error as HttpException).getStatus(), headers };
    }
  }

  it("counts a key's requests against its plan, with the headers, and refuses past the limit", async () => {
    const key = `k${keys++}`;
    const first = await call(new Limited(), 'open', key);
    expect(first).toMatchObject({ admitted: true });
    expect(first.headers).toMatchObject({ 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '1' });
    expect(await call(new Limited(), 'open', key)).toMatchObject({ admitted: true });
    const third = await call(new Limited(), 'open', key);
    expect(third).toMatchObject({ refused: 429 });
    expect(third.headers['Retry-After']).toMatch(/^[1-9][0-9]*$/);
  });

  it('counts a request without a known client per address, with the anonymous limits', async () => {
    expect(await call(new Limited(), 'open')).toMatchObject({ admitted: true });
    expect(await call(new Limited(), 'open')).toMatchObject({ refused: 429 });
  });

  it('charges an unverified client to the address first, and never checks it once that is spent', async () => {
    verifications.length = 0;
    expect(await call(new Limited(), 'open', 'guess-1', 'unverified')).toMatchObject({
      admitted: true,
    });
    const refused = await call(new Limited(), 'open', 'guess-2', 'unverified');
    expect(refused).toMatchObject({ refused: 429 });
    expect(refused.headers['X-RateLimit-Limit']).toBe('1');
    expect(verifications).toEqual(['guess-1']);
  });

  it('checks a client the address cannot pay for when it is vouched for, and counts it on its own windows', async () => {
    await call(new Limited(), 'open', 'guess-3', 'unverified');
    expect(await call(new Limited(), 'open', 'guess-4', 'unverified')).toMatchObject({
      refused: 429,
    });
    verifications.length = 0;
    const vouched = await call(new Limited(), 'open', `vouched-${keys++}`, 'unverified');
    expect(vouched).toMatchObject({ admitted: true });
    expect(vouched.headers).toMatchObject({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '4',
    });
    expect(verifications).toHaveLength(1);
  });

  it('counts a verified client on its own windows once the address has paid for the check', async () => {
    const admitted = await call(new Limited(), 'open', `valid-${keys++}`, 'unverified');
    expect(admitted).toMatchObject({ admitted: true });
    expect(admitted.headers).toMatchObject({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '4',
    });
  });

  it('lets @SkipThrottle() handlers and controllers through without counting them', async () => {
    const key = `k${keys++}`;
    for (let i = 0; i < 5; i++) {
      expect(await call(new Limited(), 'exempt', key)).toEqual({ admitted: true, headers: {} });
      expect(await call(new Exempt(), 'any', key)).toEqual({ admitted: true, headers: {} });
    }
    const counted = await call(new Limited(), 'open', key);
    expect(counted.headers['X-RateLimit-Remaining']).toBe('1');
  });
});

/** A store with a clock of its own, as Redis's: it decides at this instant, whatever it is told. */
const STORE_NOW = Date.parse('2026-11-22T13:45:59.250Z');

@Injectable()
class OwnClockStore extends WindowStore {
  async hit({ limits }: HitRequest): Promise<HitResult> {
    const windows = windowStates(STORE_NOW, limits, limits.perMinute, 1);
    return { outcome: 'limited', windows, exhausted: 'minute', now: STORE_NOW };
  }
  async bannedUntil(): Promise<number | null> {
    return null;
  }
  async liftBan(): Promise<void> {}
  async release(): Promise<void> {}
  async peek(): Promise<WindowsNow> {
    throw new Error('not asked here');
  }
}

describe('PlanThrottlerGuard with a store that keeps its own clock', () => {
  it("derives the headers and Retry-After from the store's instant, not its own clock", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        RateLimitModule.forRootAsync({
          resolver: KeyHeaderResolver,
          store: OwnClockStore,
          useFactory: () => ({}),
        }),
      ],
    })
      // This instance's clock is 1.5 s behind: by it the minute would end in 3 s, not 1.
      .overrideProvider(RateLimitClock)
      .useValue({ now: () => STORE_NOW - 1_500 })
      .compile();
    await moduleRef.init();
    const guard = moduleRef.get(PlanThrottlerGuard);
    const headers: Record<string, string> = {};
    const context = new ExecutionContextHost(
      [
        { ip: '192.0.2.1', headers: { key: 'skewed' } },
        { header: (name: string, value: string) => (headers[name] = value) },
      ],
      Limited,
      new Limited().open,
    );
    await expect(guard.canActivate(context)).rejects.toThrow(HttpException);
    expect(headers).toMatchObject({
      'X-RateLimit-Reset': String(Date.parse('2026-11-22T13:46:00Z') / 1000),
      'Retry-After': '1',
    });
    expect(headers.RateLimit).toBe('"minute";r=0;t=1');
  });
});
