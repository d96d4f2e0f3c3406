import { ProcessingSlots } from './processing-slots';

/** A piece of work that ends when the test says so. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe('ProcessingSlots', () => {
  const busy = () => new Error('busy');

  it('runs up to its concurrency at once, queues up to its queue length, refuses beyond', async () => {
    const slots = new ProcessingSlots(2, 1, busy);
    const works = [pending(), pending(), pending()];
    const started: number[] = [];
    const runs = works.map((work, i) =>
      slots.run(async () => {
        started.push(i);
        await work.done;
        return i;
      }),
    );
    await expect(slots.run(async () => 'late')).rejects.toThrow('busy');
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(slots.load).toEqual({ running: 2, waiting: 1 });

    works[1].finish();
    expect(await runs[1]).toBe(1);
    expect(started).toEqual([0, 1, 2]);
    expect(slots.load).toEqual({ running: 2, waiting: 0 });
    works[0].finish();
    works[2].finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('hands a slot to the oldest waiting piece, before a newcomer', async () => {
    const slots = new ProcessingSlots(1, 5, busy);
    const first = pending();
    const order: string[] = [];
    const runs = [slots.run(() => first.done.then(() => order.push('first')))];
    runs.push(slots.run(async () => order.push('queued')));
    first.finish();
    await runs[0];
    runs.push(slots.run(async () => order.push('newcomer')));
    await Promise.all(runs);
    expect(order).toEqual(['first', 'queued', 'newcomer']);
  });

  it('frees the slot of work that fails', async () => {
    const slots = new ProcessingSlots(1, 0, busy);
    await expect(slots.run(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
