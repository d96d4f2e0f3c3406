/**
 * Port: one transaction around a use case's work. Every change a repository makes and every event
 * recorded while `work` runs joins it (a transaction already under way is joined, not nested): it
 * commits when `work` resolves and rolls back when it throws.
 */
export abstract class Transactions {
  abstract run<T>(work: () => Promise<T>): Promise<T>;

  /**
   * Runs `issue`, which asks several repositories at once inside the transaction under way (their
   * calls started without awaiting one another): what they send goes in one round trip. Each call
   * answers as it would alone; after one that failed, the others fail too. A use case whose next
   * question does not depend on the answer before saves the wait.
   */
  abstract together<T>(issue: () => Promise<T>): Promise<T>;
}
