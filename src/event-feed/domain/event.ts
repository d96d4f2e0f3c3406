import { DomainError } from '../../common/domain-error';
import { EventId } from '../../common/events/event';

/** The shapes every feature shares live in the shared kernel; the feed reads them as they are. */
export type { Event, EventId } from '../../common/events/event';

/** An event as the feed keeps it: the event, and whose object it is (for the visibility rule). */
export interface StoredEvent {
  readonly id: EventId;
  /** The name of its type. */
  readonly type: string;
  readonly occurredAt: string;
  readonly data: object;
  /** The API key the object belongs to, for order events and pings; null for pet events. */
  readonly owner: string | null;
  /** The organisation the object belongs to (a pet's, an order's pet's). */
  readonly organizationId: number | null;
}

export class EventNotFoundError extends DomainError {
  readonly code = 'not_found';

  /** `id` as the client wrote it. */
  constructor(id: string) {
    super(`No event with id ${id}.`);
  }
}
