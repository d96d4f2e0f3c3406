import { MemoryWindowStore } from './memory-window-store';
import { windowStoreContract } from '@pet-adoption/rate-limit/testing';

let n = 0;
windowStoreContract(
  'MemoryWindowStore',
  () => new MemoryWindowStore(),
  () => `subject-${n++}`,
);

describe("MemoryWindowStore windows, by the caller's clock", () => {
  const now = Date.parse('2026-11-22T13:45:17Z');
  const hit = (
    store: MemoryWindowStore,
    subject: string,
    at: number,
    limits = { perMinute: 3, perDay: 5 },
    banThreshold = 30,
  ) => store.hit({ subject, limits, now: at, banThreshold, banMs: 600_000 });

  it('admits again in the next minute, the day still counting', async () => {
    const store = new MemoryWindowStore();
    for (let i = 0; i < 4; i++) await hit(store, 's', now);
    const next = await hit(store, 's', now + 60_000);
    expect(next).toMatchObject({ outcome: 'admitted', now: now + 60_000 });
    expect(next.windows.find((w) => w.name === 'day')!.remaining).toBe(1);
  });

  it('lets the day window take over across minutes', async () => {
    const store = new MemoryWindowStore();
    for (let minute = 0; minute < 2; minute++)
      for (let i = 0; i < 3; i++) await hit(store, 's', now + minute * 60_000);
    const result = await hit(store, 's', now + 2 * 60_000);
    expect(result).toMatchObject({ outcome: 'limited', exhausted: 'day' });
  });

  it('keeps a ban into a fresh minute with budget left', async () => {
    const store = new MemoryWindowStore();
    const limits = { perMinute: 1, perDay: 100 };
    for (let i = 0; i < 3; i++) await hit(store, 's', now, limits, 2);
    expect(await hit(store, 's', now, limits, 2)).toMatchObject({
      outcome: 'banned',
      bannedUntil: now + 600_000,
    });
    expect((await hit(store, 's', now + 60_000, limits, 2)).outcome).toBe('banned');
    await store.liftBan('s');
    expect((await hit(store, 's', now + 60_000, limits, 2)).outcome).toBe('admitted');
  });
});

describe('MemoryWindowStore memory', () => {
  it('stays bounded over many distinct subjects and many windows', async () => {
    const store = new MemoryWindowStore();
    const start = Date.parse('2026-11-22T00:00:00Z');
    let peak = 0;
    for (let minute = 0; minute < 30; minute++) {
      for (let i = 0; i < 1000; i++) {
        await store.hit({
          subject: `m${minute}-s${i}`,
          limits: { perMinute: 5, perDay: 5 },
          now: start + minute * 60_000,
          banThreshold: 30,
          banMs: 1000,
        });
      }
      peak = Math.max(peak, store.size);
    }
    // Minute counters of past minutes are swept; only the day counters of the day remain.
    expect(peak).toBeLessThanOrEqual(30 * 1000 + 2 * 1000);
    await store.hit({
      subject: 'late',
      limits: { perMinute: 5, perDay: 5 },
      now: start + 2 * 86_400_000,
      banThreshold: 30,
      banMs: 1000,
    });
    expect(store.size).toBe(2);
  });
});
