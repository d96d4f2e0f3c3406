/** Why a piece of work was refused: its tenant's own queue is full, or the instance's. */
export type Refusal = 'tenant' | 'instance';

interface Waiting {
  readonly start: () => void;
}

/**
 * At most `concurrency` pieces of work at once; the rest wait in one queue per tenant (an
 * organisation). When a slot frees, it goes to the waiting tenant with the fewest pieces running,
 * and among those to the one whose turn came longest ago (round robin; a tenant with nothing
 * running nor waiting is forgotten, and counts as served just before it came back). So however much one tenant
 * has sent, another's work waits for at most one piece of the first's to end. A tenant may have `perTenant` pieces waiting and the instance
 * `total`; beyond either, `busy(refusal)` is thrown at once (a full tenant leaves the others their
 * places as long as `perTenant` < `total`). A freed slot passes straight to the chosen piece, so
 * no newcomer overtakes the queues.
 */
export class FairQueue {
  private running = 0;
  private waitingCount = 0;
  /** Pieces under way per tenant, while it has any. */
  private readonly runningOf = new Map<string, number>();
  /** Tenants with work waiting; each one's work in arrival order. */
  private readonly queues = new Map<string, Waiting[]>();
  /** Counts the pieces started; each tenant known: when its last piece started. */
  private turn = 0;
  private readonly lastTurn = new Map<string, number>();

  constructor(
    private readonly concurrency: number,
    private readonly perTenant: number,
    private readonly total: number,
    private readonly busy: (refusal: Refusal) => Error,
  ) {}

  async run<T>(tenant: string, work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency && this.waitingCount === 0) this.started(tenant);
    else await this.wait(tenant);
    try {
      return await work();
    } finally {
      this.ended(tenant);
    }
  }

  private wait(tenant: string): Promise<void> {
    const queue = this.queues.get(tenant) ?? [];
    if (queue.length >= this.perTenant) throw this.busy('tenant');
    if (this.waitingCount >= this.total) throw this.busy('instance');
    // A tenant new to the instance comes after those whose turn was before it arrived, and
    // before any that was served since (half a turn back).
    if (!this.lastTurn.has(tenant)) this.lastTurn.set(tenant, this.turn - 0.5);
    return new Promise<void>((start) => {
      queue.push({ start });
      this.waitingCount++;
      this.queues.set(tenant, queue);
    });
  }

  private runningFor(tenant: string): number {
    return this.runningOf.get(tenant) ?? 0;
  }

  private started(tenant: string): void {
    this.running++;
    this.lastTurn.set(tenant, ++this.turn);
    this.runningOf.set(tenant, (this.runningOf.get(tenant) ?? 0) + 1);
  }

  /** The slot just freed goes to the waiting tenant with the fewest pieces running, then the one
   * served longest ago. */
  private ended(tenant: string): void {
    this.running--;
    const left = this.runningOf.get(tenant)! - 1;
    if (left > 0) this.runningOf.set(tenant, left);
    else this.runningOf.delete(tenant);
    let chosen: string | undefined;
    for (const waiting of this.queues.keys()) {
      if (chosen === undefined || this.before(waiting, chosen)) chosen = waiting;
    }
    if (chosen !== undefined) {
      const queue = this.queues.get(chosen)!;
      const piece = queue.shift()!;
      this.waitingCount--;
      if (queue.length === 0) this.queues.delete(chosen);
      this.started(chosen);
      piece.start();
    }
    if (!this.runningOf.has(tenant) && !this.queues.has(tenant)) this.lastTurn.delete(tenant);
  }

  private before(one: string, other: string): boolean {
    const [running, otherRunning] = [this.runningFor(one), this.runningFor(other)];
    if (running !== otherRunning) return running < otherRunning;
    return this.lastTurn.get(one)! < this.lastTurn.get(other)!;
  }

  /** Work under way and waiting, for tests and metrics. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }
}
