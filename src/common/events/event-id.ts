/**
 * Event ids (docs/adr/0048): `evt_` and 26 characters of Crockford's base32 spelling a 128-bit
 * number, given to each event when it settles, in the feed's order. The first 48 bits are the
 * millisecond it settled; the other 80 are random, and an id given in the same millisecond as the
 * one before (or, on a clock that stepped back, earlier) is the one before plus a random step. So
 * ids sort, as numbers and as text, in the feed's order, and the difference between two says
 * nothing of how many events lie between them: no transaction id, no count.
 */
export type EventId = string;

/** Crockford's base32: digits and capitals without I, L, O and U; ascending in ASCII. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 26;
const BITS = 128n;
const RANDOM_BITS = 80n;
/** The largest step from one id to the next within a millisecond: 2^32. */
const STEP_BITS = 32n;

/** An event id: `evt_`, then 26 base32 digits, the first at most 7 (128 bits). */
export const EVENT_ID_PATTERN = `^evt_[0-7][${ALPHABET}]{25}$`;

/** The id of v1.2 (`evt_` + transaction + `_` + sequence number), still accepted as a cursor. */
export const LEGACY_EVENT_ID_PATTERN = '^evt_(\\d{16})_(\\d{16})$';

/** Either spelling: what `after` and `GET /v1/events/{eventId}` take. */
export const EVENT_REFERENCE_PATTERN = `(${EVENT_ID_PATTERN})|(${LEGACY_EVENT_ID_PATTERN})`;

/** Where a v1.2 id stood: its transaction and sequence number, as decimal digits. */
export interface LegacyEventPosition {
  readonly xid: string;
  readonly seq: string;
}

/** What an id a client sent names: an event by its number, or a v1.2 position. */
export type EventReference = { readonly number: bigint } | { readonly legacy: LegacyEventPosition };

/** The id of the event whose number is `value` (0 ≤ value < 2^128). */
export function eventIdOf(value: bigint): EventId {
  let rest = value;
  let digits = '';
  for (let i = 0; i < LENGTH; i += 1) {
    digits = ALPHABET[Number(rest & 31n)] + digits;
    rest >>= 5n;
  }
  return `evt_${digits}`;
}

/** What an id names, or undefined when the text is neither spelling. */
export function eventReferenceOf(id: string): EventReference | undefined {
  const legacy = new RegExp(LEGACY_EVENT_ID_PATTERN).exec(id);
  if (legacy) {
    const digits = (text: string) => text.replace(/^0+(?=\d)/, '');
    return { legacy: { xid: digits(legacy[1]), seq: digits(legacy[2]) } };
  }
  if (!new RegExp(EVENT_ID_PATTERN).test(id)) return undefined;
  let value = 0n;
  for (const digit of id.slice('evt_'.length))
    value = (value << 5n) | BigInt(ALPHABET.indexOf(digit));
  return { number: value };
}

/**
 * The numbers of `count` events settling now, after `previous` (the last number given, if any):
 * ascending, each above the one before.
 *
 * @param randomBits a uniformly random number of that many bits
 */
export function nextEventNumbers(
  previous: bigint | null,
  nowMs: number,
  count: number,
  randomBits: (bits: bigint) => bigint,
): bigint[] {
  const numbers: bigint[] = [];
  let last = previous;
  for (let i = 0; i < count; i += 1) {
    const fresh = (BigInt(nowMs) << RANDOM_BITS) | randomBits(RANDOM_BITS);
    const next = last === null || fresh > last ? fresh : last + 1n + randomBits(STEP_BITS);
    if (next >> BITS !== 0n) throw new RangeError('Event numbers are exhausted.');
    numbers.push(next);
    last = next;
  }
  return numbers;
}

/** A number as PostgreSQL's uuid spells it (the column that keeps it: 16 bytes, ordered as bytes). */
export function uuidOf(value: bigint): string {
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The number a uuid column holds. */
export function numberOfUuid(uuid: string): bigint {
  return BigInt(`0x${uuid.replace(/-/g, '')}`);
}
