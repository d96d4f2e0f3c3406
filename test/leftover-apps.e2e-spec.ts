import { closeLeftoverApps } from './support/open-apps';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The suite's own clean-up (test/support/spec-cleanup.ts): an app a spec lost track of is closed
 * at the end of its file, rather than running on into the next files, or keeping Jest from ending.
 */
describe('apps a spec left open', () => {
  it('are closed after the file, a start still under way included', async () => {
    let started: TestApp | undefined;
    const start = startTestApp().then((app) => (started = app));
    // As two starts at once in a beforeAll: the other fails first, and this one is never seen.
    await expect(
      Promise.all([start, Promise.reject(new Error('the other start'))]),
    ).rejects.toThrow('the other start');
    await closeLeftoverApps();
    expect(started).toBeDefined();
    await expect(fetch(`${started!.url}/health/live`)).rejects.toThrow();
    // Closing it again, as its spec would, is the same close.
    await started!.close();
  });
});
