import { WindowStore } from '../src/window-store';

/** The behaviour every WindowStore adapter must have; run by each adapter's spec. */
export function windowStoreContract(
  name: string,
  create: () => WindowStore | Promise<WindowStore>,
  subject: () => string,
) {
  describe(`${name} (window store contract)`, () => {
    const now = Date.parse('2026-11-22T13:45:17Z');
    const hit = (
      store: WindowStore,
      s: string,
      limits = { perMinute: 3, perDay: 5 },
      at = now,
      banThreshold = 30,
    ) => store.hit({ subject: s, limits, now: at, banThreshold, banMs: 600_000 });

    it('admits the limit, then refuses without counting the refusals', async () => {
      const store = await create();
      const s = subject();
      const outcomes = [];
      for (let i = 0; i < 5; i++) outcomes.push((await hit(store, s)).outcome);
      expect(outcomes).toEqual(['admitted', 'admitted', 'admitted', 'limited', 'limited']);
      const next = await hit(store, s, undefined, now + 60_000);
      expect(next.outcome).toBe('admitted');
      expect(next.windows.find((w) => w.name === 'day')!.remaining).toBe(1);
    });

    it('lets the day window take over from the minute window', async () => {
      const store = await create();
      const s = subject();
      for (let minute = 0; minute < 2; minute++)
        for (let i = 0; i < 3; i++) await hit(store, s, undefined, now + minute * 60_000);
      const result = await hit(store, s, undefined, now + 2 * 60_000);
      expect(result).toMatchObject({ outcome: 'limited', exhausted: 'day' });
    });

    it('bans a subject refused more than the threshold within a minute, until lifted', async () => {
      const store = await create();
      const s = subject();
      const limits = { perMinute: 1, perDay: 100 };
      await hit(store, s, limits, now, 2);
      expect((await hit(store, s, limits, now, 2)).outcome).toBe('limited');
      expect((await hit(store, s, limits, now, 2)).outcome).toBe('limited');
      const banned = await hit(store, s, limits, now, 2);
      expect(banned).toMatchObject({ outcome: 'banned', bannedUntil: now + 600_000 });
      // Even a fresh minute with budget left stays banned.
      expect((await hit(store, s, limits, now + 60_000, 2)).outcome).toBe('banned');
      expect(await store.bannedUntil(s, now)).toBeGreaterThan(now);
      await store.liftBan(s);
      expect(await store.bannedUntil(s, now)).toBeNull();
      expect((await hit(store, s, limits, now + 60_000, 2)).outcome).toBe('admitted');
    });

    it('admits exactly the limit out of many concurrent hits', async () => {
      const store = await create();
      const s = subject();
      const results = await Promise.all(
        Array.from({ length: 200 }, () => hit(store, s, { perMinute: 37, perDay: 1000 })),
      );
      expect(results.filter((r) => r.outcome === 'admitted')).toHaveLength(37);
    });
  });
}
