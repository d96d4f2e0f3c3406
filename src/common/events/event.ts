import { EventType } from './event-types';

/**
 * What happened, as every feature records it and every reader sees it (docs/adr/0030). Plain
 * data: the features that record events, the feed that shows them and the webhooks that push
 * them all read these shapes, and none of them imports another. Each feature declares its own
 * event types (`declareEventTypes`, src/common/events/event-types.ts).
 */

/** An event to record: its type, the object after the change, and whose it is (orders, pings). */
export interface NewEvent {
  /** Its type, as declared by the feature whose object it tells of. */
  readonly type: EventType;
  /** The object after the change (as it was, for a deletion), exactly as the API answers it. */
  readonly data: object;
  /** The API key the object belongs to: an order's, a ping's endpoint's; none for pets. */
  readonly owner?: string;
  /**
   * The organisation the object belongs to: a pet's, an order's pet's. Its staff managing orders
   * read the order events of its pets.
   */
  readonly organization?: number;
}

/** An event as recorded and read back. */
export interface Event {
  /** `evt_` and its position in the feed (EventPosition): unique, ascending in the feed's order. */
  readonly id: EventId;
  /** The name of its type (`pet.created`). */
  readonly type: string;
  /** RFC 3339, UTC: the instant of the change (its transaction's). */
  readonly occurredAt: string;
  readonly data: object;
}

export type EventId = string;

/**
 * Where an event stands in the feed (docs/adr/0030): the id of the transaction that recorded it,
 * then its sequence number, both as decimal digits. The feed is ordered by the pair, and shows an
 * event only once every transaction older than its own has ended, so no event can later appear
 * before one a reader has already seen.
 */
export interface EventPosition {
  readonly xid: string;
  readonly seq: string;
}

/** Before every event. */
export const FIRST_POSITION: EventPosition = { xid: '0', seq: '0' };

const ID_PATTERN = /^evt_(\d{16})_(\d{16})$/;
/** Digits of each part: fixed, so that ids sort as text as they do in the feed. */
const DIGITS = 16;

/** The id of the event at `position`: `evt_`, the transaction, `_`, the sequence number. */
export function eventIdOf({ xid, seq }: EventPosition): EventId {
  return `evt_${xid.padStart(DIGITS, '0')}_${seq.padStart(DIGITS, '0')}`;
}

/** The position an event id names, or undefined when the text is no event id. */
export function positionOf(id: string): EventPosition | undefined {
  const match = ID_PATTERN.exec(id);
  if (!match) return undefined;
  const digits = (text: string) => text.replace(/^0+(?=\d)/, '');
  return { xid: digits(match[1]), seq: digits(match[2]) };
}

export const EVENT_ID_PATTERN = ID_PATTERN.source;
