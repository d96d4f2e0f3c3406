import { FairQueue, Refusal } from './fair-queue';

/** A piece of work that ends when the test says so. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  const busy = (refusal: Refusal) => new Error(`busy: ${refusal}`);

  /** Runs `name` for `tenant`, noting when it starts; it ends when `finish` is called. */
  function submit(queue: FairQueue, tenant: string, name: string, started: string[]) {
    const work = pending();
    const run = queue.run(tenant, async () => {
      started.push(name);
      await work.done;
      return name;
    });
    return { run, finish: work.finish };
  }

  it('runs up to its concurrency at once; refuses a full tenant, then a full instance', async () => {
    const queue = new FairQueue(2, 2, 3, busy);
    const started: string[] = [];
    const a = ['a1', 'a2', 'a3', 'a4'].map((name) => submit(queue, 'A', name, started));
    await expect(queue.run('A', async () => 'a5')).rejects.toThrow('busy: tenant');
    const b = submit(queue, 'B', 'b1', started);
    await expect(queue.run('C', async () => 'c1')).rejects.toThrow('busy: instance');
    await tick();
    expect(started).toEqual(['a1', 'a2']);
    expect(queue.load).toEqual({ running: 2, waiting: 3 });
    for (const piece of [...a, b]) piece.finish();
    expect(await Promise.all([...a, b].map((piece) => piece.run))).toEqual([
      'a1',
      'a2',
      'a3',
      'a4',
      'b1',
    ]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it("gives a freed slot to the tenant with the fewest pieces running: another's work waits for one piece only", async () => {
    const queue = new FairQueue(2, 10, 20, busy);
    const started: string[] = [];
    const a = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => submit(queue, 'A', name, started));
    const b = ['b1', 'b2'].map((name) => submit(queue, 'B', name, started));
    await tick();
    expect(started).toEqual(['a1', 'a2']);
    // a1 ends: A still runs a2, B nothing, so b1 goes first although a3 came earlier.
    a[0].finish();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    // a2 ends: A and B run one each; A's turn came longest ago (B was served last).
    a[1].finish();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    b[0].finish();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'b2']);
    for (const piece of [...a, ...b]) piece.finish();
    await Promise.all([...a, ...b].map((piece) => piece.run));
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'b2', 'a4', 'a5']);
  });

  it('gives the one slot to the tenant served longest ago: a newcomer goes before the tenant that just had it', async () => {
    const queue = new FairQueue(1, 10, 20, busy);
    const started: string[] = [];
    const a = ['a1', 'a2', 'a3'].map((name) => submit(queue, 'A', name, started));
    const b = ['b1', 'b2'].map((name) => submit(queue, 'B', name, started));
    for (const piece of [...a, ...b]) {
      await tick();
      piece.finish();
    }
    await Promise.all([...a, ...b].map((piece) => piece.run));
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
    // Forgotten when idle: nothing is kept of a tenant with nothing under way.
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('passes the slot on when a piece fails, and never lets a newcomer overtake those waiting', async () => {
    const queue = new FairQueue(1, 5, 5, busy);
    const started: string[] = [];
    const failing = queue.run('A', async () => {
      started.push('a1');
      await tick();
      throw new Error('broken image');
    });
    const b = submit(queue, 'B', 'b1', started);
    await expect(failing).rejects.toThrow('broken image');
    await tick();
    expect(started).toEqual(['a1', 'b1']);
    // A newcomer while B runs and C waits: C, then the newcomer.
    const c = submit(queue, 'C', 'c1', started);
    const d = submit(queue, 'D', 'd1', started);
    b.finish();
    c.finish();
    d.finish();
    await Promise.all([b.run, c.run, d.run]);
    expect(started).toEqual(['a1', 'b1', 'c1', 'd1']);
  });
});
