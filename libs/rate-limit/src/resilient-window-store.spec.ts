import { Logger } from '@nestjs/common';
import { ReplyError } from 'ioredis';
import { ResilientWindowStore, WindowStoreUnavailableError } from './resilient-window-store';
import { HitRequest, HitResult, WindowStore, WindowsNow } from './window-store';

/** A shared store that fails every call with the error the test gives it. */
class FailingStore extends WindowStore {
  constructor(private readonly error: () => Error) {
    super();
  }
  hit(): Promise<HitResult> {
    return Promise.reject(this.error());
  }
  bannedUntil(): Promise<number | null> {
    return Promise.reject(this.error());
  }
  liftBan(): Promise<void> {
    return Promise.reject(this.error());
  }
  release(): Promise<void> {
    return Promise.reject(this.error());
  }
  peek(): Promise<WindowsNow> {
    return Promise.reject(this.error());
  }
}

describe('ResilientWindowStore', () => {
  const request: HitRequest = {
    subject: 's',
    limits: { perMinute: 5, perDay: 10 },
    now: Date.parse('2026-11-23T10:00:00Z'),
    banThreshold: 30,
    banMs: 1000,
  };
  let errors: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('takes an error Redis answered with for a fault of that call, not an outage, and logs it once', async () => {
    const store = new ResilientWindowStore(
      new FailingStore(() => new ReplyError('ERR value is not an integer or out of range')),
      false,
    );
    for (let i = 0; i < 5; i++) expect((await store.hit(request)).outcome).toBe('admitted');
    expect(store.degraded).toBe(false);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0][0]).toMatch(/Rate-limit store answered with an error/);
    expect(errors.mock.calls[0][0]).not.toMatch(/unreachable/);
  });

  it('fails closed on such an error when asked to, still without declaring an outage', async () => {
    const store = new ResilientWindowStore(new FailingStore(() => new ReplyError('OOM')), true);
    await expect(store.hit(request)).rejects.toThrow(WindowStoreUnavailableError);
    expect(store.degraded).toBe(false);
  });

  it('declares an outage for a connection that fails, once per incident', async () => {
    const store = new ResilientWindowStore(
      new FailingStore(() => new Error('Connection is closed.')),
      false,
    );
    for (let i = 0; i < 5; i++) await store.hit(request);
    expect(store.degraded).toBe(true);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0][0]).toMatch(/unreachable/);
  });

  describe('a reply later than the command timeout', () => {
    const timedOut = () => new Error('Command timed out');
    let warnings: jest.SpyInstance;
    beforeEach(() => {
      warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    });

    it.each([
      ['fail-open', false],
      ['fail-closed', true],
    ])(
      'while connected is refused with Retry-After 1 and never counted per instance (%s)',
      async (_, failClosed) => {
        const store = new ResilientWindowStore(new FailingStore(timedOut), failClosed, () => true);
        for (let i = 0; i < 3; i++) {
          const refused = store.hit(request);
          await expect(refused).rejects.toThrow(WindowStoreUnavailableError);
          await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 1 });
        }
        expect(store.degraded).toBe(false);
        expect(errors).not.toHaveBeenCalled();
        expect(warnings).toHaveBeenCalledTimes(1);
        expect(warnings.mock.calls[0][0]).toMatch(/late/);
        expect(warnings.mock.calls[0][0]).not.toMatch(/unreachable/);
      },
    );

    it('once the connection is lost is an outage: counted per instance (fail-open)', async () => {
      const store = new ResilientWindowStore(new FailingStore(timedOut), false, () => false);
      expect((await store.hit(request)).outcome).toBe('admitted');
      expect(store.degraded).toBe(true);
      expect(errors.mock.calls[0][0]).toMatch(/unreachable/);
    });

    it('from a lost connection answers Retry-After 5 when failing closed', async () => {
      const store = new ResilientWindowStore(
        new FailingStore(() => new Error('Connection is closed.')),
        true,
        () => false,
      );
      await expect(store.hit(request)).rejects.toMatchObject({ retryAfterSeconds: 5 });
    });
  });
});
