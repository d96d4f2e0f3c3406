import { WindowStore } from '../src/window-store';
import { windowStates } from '../src/windows';

export interface WindowStoreContractOptions {
  /**
   * Waits, if need be, until the store's current minute has a few seconds left. A store that
   * follows a clock of its own (Redis: the server's) cannot be handed an instant, so a test
   * counting within one minute must not start at the very end of one.
   */
  awayFromMinuteEnd?: () => Promise<void>;
}

/**
 * The behaviour every WindowStore adapter must have; run by each adapter's spec. It holds
 * whichever clock the store follows, the caller's `now` or its own: nothing here moves time, and
 * every expectation is relative to the instant the store answers it decided at.
 */
export function windowStoreContract(
  name: string,
  create: () => WindowStore | Promise<WindowStore>,
  subject: () => string,
  { awayFromMinuteEnd = async () => undefined }: WindowStoreContractOptions = {},
) {
  describe(`${name} (window store contract)`, () => {
    const now = Date.parse('2026-11-22T13:45:17Z');
    const hit = (
      store: WindowStore,
      s: string,
      limits = { perMinute: 3, perDay: 5 },
      banThreshold = 30,
    ) => store.hit({ subject: s, limits, now, banThreshold, banMs: 600_000 });

    beforeEach(() => awayFromMinuteEnd());

    it('admits the limit, then refuses without counting the refusals', async () => {
      const store = await create();
      const s = subject();
      const outcomes = [];
      for (let i = 0; i < 5; i++) outcomes.push((await hit(store, s)).outcome);
      expect(outcomes).toEqual(['admitted', 'admitted', 'admitted', 'limited', 'limited']);
      // With one more request allowed per minute, the day shows 4 counted, not the 2 refusals.
      const next = await hit(store, s, { perMinute: 4, perDay: 5 });
      expect(next.outcome).toBe('admitted');
      expect(next.windows.find((w) => w.name === 'day')!.remaining).toBe(1);
    });

    it('lets the day window take over from the minute window', async () => {
      const store = await create();
      const s = subject();
      for (let i = 0; i < 3; i++) await hit(store, s);
      for (let i = 0; i < 2; i++)
        expect((await hit(store, s, { perMinute: 10, perDay: 5 })).outcome).toBe('admitted');
      const result = await hit(store, s, { perMinute: 10, perDay: 5 });
      expect(result).toMatchObject({ outcome: 'limited', exhausted: 'day' });
    });

    it('describes the windows containing the instant it decided at', async () => {
      const store = await create();
      const result = await hit(store, subject());
      expect(result.windows).toEqual(windowStates(result.now, { perMinute: 3, perDay: 5 }, 1, 1));
    });

    it('bans a subject refused more than the threshold within a minute, until lifted', async () => {
      const store = await create();
      const s = subject();
      const limits = { perMinute: 1, perDay: 100 };
      await hit(store, s, limits, 2);
      expect((await hit(store, s, limits, 2)).outcome).toBe('limited');
      expect((await hit(store, s, limits, 2)).outcome).toBe('limited');
      const banned = await hit(store, s, limits, 2);
      expect(banned).toMatchObject({ outcome: 'banned' });
      expect(banned.outcome === 'banned' && banned.bannedUntil - banned.now).toBe(600_000);
      // Even with budget left the subject stays banned.
      expect((await hit(store, s, { perMinute: 100, perDay: 100 }, 2)).outcome).toBe('banned');
      expect(await store.bannedUntil(s, now)).toBeGreaterThan(now);
      await store.liftBan(s);
      expect(await store.bannedUntil(s, now)).toBeNull();
      expect((await hit(store, s, { perMinute: 100, perDay: 100 }, 2)).outcome).toBe('admitted');
    });

    it('admits exactly the limit out of many concurrent hits', async () => {
      const store = await create();
      const s = subject();
      const results = await Promise.all(
        Array.from({ length: 200 }, () => hit(store, s, { perMinute: 37, perDay: 1000 })),
      );
      expect(results.filter((r) => r.outcome === 'admitted')).toHaveLength(37);
    });

    it('shows both windows as they stand, counting nothing', async () => {
      const store = await create();
      const s = subject();
      const limits = { perMinute: 3, perDay: 10 };
      const fresh = await store.peek(s, limits, now);
      expect(fresh.windows.map((w) => [w.name, w.limit, w.remaining])).toEqual([
        ['minute', 3, 3],
        ['day', 10, 10],
      ]);
      await hit(store, s, limits);
      await hit(store, s, limits);
      for (let i = 0; i < 3; i++) {
        const seen = await store.peek(s, limits, now);
        expect(seen.windows.map((w) => w.remaining)).toEqual([1, 8]);
        expect(seen.windows[0].resetAt).toBe(Math.floor(seen.now / 60_000) * 60 + 60);
      }
      expect((await hit(store, s, limits)).outcome).toBe('admitted');
      expect((await hit(store, s, limits)).outcome).toBe('limited');
    });

    it('gives back a released request in both windows, never below zero', async () => {
      const store = await create();
      const s = subject();
      await store.release(s, now);
      const limits = { perMinute: 2, perDay: 5 };
      expect((await hit(store, s, limits)).outcome).toBe('admitted');
      const second = await hit(store, s, limits);
      expect(second.windows.find((w) => w.name === 'minute')!.remaining).toBe(0);
      await store.release(s, now);
      const third = await hit(store, s, limits);
      expect(third.outcome).toBe('admitted');
      // Two counted in the day window: the released one is not among them.
      expect(third.windows.find((w) => w.name === 'day')!.remaining).toBe(3);
      expect((await hit(store, s, limits)).outcome).toBe('limited');
    });
  });
}
