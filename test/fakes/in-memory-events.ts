import { NewEvent } from '../../src/common/events/event';
import { EventRecorder } from '../../src/common/events/event-recorder';
import { Transactions } from '../../src/common/transactions';

/** An event as a test reads it: its type by name. */
export type RecordedEvent = Omit<NewEvent, 'type'> & { type: string };

/**
 * Events in an array, for unit tests of the use cases, with the port's rule: what is recorded in
 * a transaction counts only once it commits (`recorded`), and is gone if it rolls back.
 */
export class InMemoryEvents extends EventRecorder {
  readonly recorded: RecordedEvent[] = [];
  private pending?: RecordedEvent[];

  async record(events: readonly NewEvent[]): Promise<void> {
    const named = events.map((event) => ({ ...event, type: event.type.name }));
    (this.pending ?? this.recorded).push(...named);
  }

  /** The transactions these events join: a transaction under way is joined, not nested. */
  readonly transactions: Transactions = {
    run: async <T>(work: () => Promise<T>): Promise<T> => {
      if (this.pending) return work();
      this.pending = [];
      try {
        const result = await work();
        this.recorded.push(...this.pending);
        return result;
      } finally {
        this.pending = undefined;
      }
    },
    // Nothing to send: the calls run as they would one after the other.
    together: <T>(issue: () => Promise<T>): Promise<T> => issue(),
  };
}
