/**
 * At most `size` pieces of work at a time; the rest wait, in the order they asked. For background
 * work that holds one of the database pool's connections, which it shares with requests: bounded,
 * it leaves them the rest of the pool however much of it is queued.
 */
export class Turns {
  private running = 0;
  private readonly queued: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async take<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((go) => this.queued.push(go));
    else this.running += 1;
    try {
      return await work();
    } finally {
      // The turn passes to the next in line as it is, or is given back.
      const next = this.queued.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
