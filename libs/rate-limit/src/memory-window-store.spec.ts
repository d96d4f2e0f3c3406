import { MemoryWindowStore } from './memory-window-store';
import { windowStoreContract } from '@pet-adoption/rate-limit/testing';

let n = 0;
windowStoreContract(
  'MemoryWindowStore',
  () => new MemoryWindowStore(),
  () => `subject-${n++}`,
);

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
