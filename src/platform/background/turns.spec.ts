import { Turns } from './turns';

describe('Turns', () => {
  it('runs at most its size at once, the rest in the order they asked, through failures', async () => {
    const turns = new Turns(2);
    const ends = new Map<number, (fail: boolean) => void>();
    const started: number[] = [];
    const done = [1, 2, 3, 4].map((n) =>
      turns
        .take(
          () =>
            new Promise<number>((resolve, reject) => {
              started.push(n);
              ends.set(n, (fail) => (fail ? reject(new Error(`${n}`)) : resolve(n)));
            }),
        )
        .catch((error: Error) => `failed ${error.message}`),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2]);
    ends.get(2)!(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    ends.get(1)!(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3, 4]);
    ends.get(3)!(false);
    ends.get(4)!(false);
    expect(await Promise.all(done)).toEqual([1, 'failed 2', 3, 4]);
    // All turns given back: two run at once again.
    const again: number[] = [];
    const pending = [5, 6, 7].map((n) => turns.take(() => new Promise<void>(() => again.push(n))));
    await new Promise((resolve) => setImmediate(resolve));
    expect(again).toEqual([5, 6]);
    void pending;
  });
});
