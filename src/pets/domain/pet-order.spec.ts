import { shuffleStart } from './pet-order';

describe('shuffleStart', () => {
  it('is a point of the 32-bit signed range, the same for a seed every time', () => {
    for (const seed of [0, 1, 2, 12345, 2 ** 31 - 1]) {
      const start = shuffleStart(seed);
      expect(Number.isInteger(start)).toBe(true);
      expect(start).toBeGreaterThanOrEqual(-(2 ** 31));
      expect(start).toBeLessThan(2 ** 31);
      expect(shuffleStart(seed)).toBe(start);
    }
  });

  it('starts neighbouring seeds far apart', () => {
    const starts = Array.from({ length: 100 }, (_, seed) => shuffleStart(seed + 1));
    expect(new Set(starts).size).toBe(100);
    for (let i = 1; i < starts.length; i++) {
      expect(Math.abs(starts[i] - starts[i - 1])).toBeGreaterThan(2 ** 20);
    }
  });
});
