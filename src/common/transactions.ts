/**
 * Port: one transaction around a use case's work. Every change a repository makes and every event
 * recorded while `work` runs joins it (a transaction already under way is joined, not nested): it
 * commits when `work` resolves and rolls back when it throws.
 */
export abstract class Transactions {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
