import { NewEvent } from './event';

/**
 * Port: records what happened. A use case calls it inside the transaction of the change it
 * records (Transactions.run), so that the events commit with the change or not at all: an
 * acknowledged change always has its events, a refused or rolled-back one never does. Who
 * consumes them (the feed, webhooks) is no business of the caller's.
 */
export abstract class EventRecorder {
  /** Records the events in the order given; they are readable once the transaction commits. */
  abstract record(events: readonly NewEvent[]): Promise<void>;
}
