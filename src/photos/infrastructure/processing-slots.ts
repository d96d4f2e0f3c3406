/**
 * At most `concurrency` pieces of work at once; up to `queueLength` more wait their turn, in order
 * of arrival; beyond that, `busy()` is thrown at once. A slot passes from a finished piece to the
 * next waiting one directly, so a newcomer never overtakes the queue.
 */
export class ProcessingSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueLength: number,
    private readonly busy: () => Error,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length < this.queueLength) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else throw this.busy();
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Work under way and waiting, for tests and metrics. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
