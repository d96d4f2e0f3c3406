import { randomBytes } from 'node:crypto';
import {
  eventIdOf,
  eventReferenceOf,
  nextEventNumbers,
  numberOfUuid,
  uuidOf,
  EVENT_ID_PATTERN,
} from './event-id';

const random = (bits: bigint) =>
  BigInt(`0x${randomBytes(Number(bits) / 8).toString('hex')}`) & ((1n << bits) - 1n);

describe('event ids', () => {
  it('spell 128 bits in 26 base32 digits and read back to the same number', () => {
    for (const value of [0n, 1n, 31n, 32n, (1n << 128n) - 1n, random(128n)]) {
      const id = eventIdOf(value);
      expect(id).toMatch(new RegExp(EVENT_ID_PATTERN));
      expect(eventReferenceOf(id)).toEqual({ number: value });
      expect(numberOfUuid(uuidOf(value))).toBe(value);
    }
  });

  it('sort as text as their numbers do', () => {
    const values = Array.from({ length: 200 }, () => random(128n));
    const byNumber = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(eventIdOf);
    expect([...values.map(eventIdOf)].sort()).toEqual(byNumber);
    // ...and as PostgreSQL orders uuids: bytewise, which is the hex text's order.
    expect(
      byNumber.map((id) => uuidOf((eventReferenceOf(id) as { number: bigint }).number)),
    ).toEqual(
      [...byNumber].map((id) => uuidOf((eventReferenceOf(id) as { number: bigint }).number)).sort(),
    );
  });

  it('refuse what is not an id: a wrong length, a letter outside the alphabet, more than 128 bits', () => {
    const good = eventIdOf(random(128n));
    for (const bad of [
      good.slice(0, -1),
      `${good}0`,
      good.replace(/.$/, 'U'),
      `evt_8${good.slice(5)}`,
      'evt_',
    ]) {
      expect(eventReferenceOf(bad)).toBeUndefined();
    }
  });

  it('read a v1.2 id as the position it named', () => {
    expect(eventReferenceOf('evt_0000000000000812_0000000000000042')).toEqual({
      legacy: { xid: '812', seq: '42' },
    });
  });

  describe('numbers given as events settle', () => {
    it('start a new millisecond with its time and random bits', () => {
      const [first] = nextEventNumbers(null, 1_800_000_000_000, 1, () => 5n);
      expect(first).toBe((1_800_000_000_000n << 80n) | 5n);
    });

    it('ascend within a millisecond by random steps, not by one', () => {
      const now = 1_800_000_000_000;
      const numbers = nextEventNumbers(null, now, 1000, random);
      const steps = numbers.slice(1).map((value, i) => value - numbers[i]);
      expect(steps.every((step) => step > 0n)).toBe(true);
      // A count between two ids could be read from steps of one; random steps say nothing.
      expect(new Set(steps.map(String)).size).toBeGreaterThan(990);
    });

    it('stay above the last number when the clock steps back', () => {
      const previous = (1_800_000_000_500n << 80n) | 7n;
      const [next] = nextEventNumbers(previous, 1_800_000_000_000, 1, () => 0n);
      expect(next).toBe(previous + 1n);
    });
  });
});
