import { BackgroundPacing, QUIET_WAIT_MS } from './background-pacing';

/** Whether `promise` has settled once the callbacks pending now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('BackgroundPacing', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('after a step, waits as long as it took, requests under way or not', async () => {
    const pacing = new BackgroundPacing();
    pacing.requestStarted();
    const next = pacing.after(40);
    await jest.advanceTimersByTimeAsync(39);
    expect(await settled(next)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(next)).toBe(true);
  });

  it('counts the time since the step ended', async () => {
    const endedAt = performance.now();
    await jest.advanceTimersByTimeAsync(30);
    const next = new BackgroundPacing().after(40, { endedAt });
    await jest.advanceTimersByTimeAsync(9);
    expect(await settled(next)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(next)).toBe(true);
  });

  it('after a heavy step, waits three times as long as it took and then until no request is under way', async () => {
    const pacing = new BackgroundPacing();
    const first = pacing.requestStarted();
    const second = pacing.requestStarted();
    const next = pacing.after(40, { heavy: true });
    await jest.advanceTimersByTimeAsync(119);
    second();
    // The pause is not over: the request's end is not a reason to go on yet.
    expect(await settled(next)).toBe(false);
    const third = pacing.requestStarted();
    await jest.advanceTimersByTimeAsync(1);
    first();
    // Called twice, an answer still counts once: the third request is still under way.
    first();
    expect(await settled(next)).toBe(false);
    third();
    expect(await settled(next)).toBe(true);
  });

  it('after a heavy step, waits for the requests a second at most: under constant load', async () => {
    const pacing = new BackgroundPacing();
    pacing.requestStarted();
    const next = pacing.after(40, { heavy: true });
    await jest.advanceTimersByTimeAsync(120 + QUIET_WAIT_MS - 1);
    expect(await settled(next)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(next)).toBe(true);
  });

  it('after a heavy step with no request under way, waits only three times as long as it took', async () => {
    const next = new BackgroundPacing().after(40, { heavy: true });
    await jest.advanceTimersByTimeAsync(119);
    expect(await settled(next)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(next)).toBe(true);
  });

  it('stops waiting once the instance stops', async () => {
    const pacing = new BackgroundPacing();
    pacing.requestStarted();
    const stop = new AbortController();
    const next = pacing.after(40, { heavy: true, signal: stop.signal });
    await jest.advanceTimersByTimeAsync(40);
    expect(await settled(next)).toBe(false);
    stop.abort();
    expect(await settled(next)).toBe(true);
  });
});
