/**
 * The apps of a spec file not closed yet, by their close, and the starts still under way
 * (startTestApp). A spec that starts two apps at once and fails on one never learns of the other:
 * its jobs would run on past the file, and Jest would wait for them for ever instead of failing.
 * Kept apart from test-app, so that every file's clean-up loads no application code.
 */
export const openApps = new Set<() => Promise<void>>();
const starts = new Set<Promise<unknown>>();

/** `start`, counted until it settles, so that the clean-up waits for it. */
export function startingApp<T>(start: Promise<T>): Promise<T> {
  starts.add(start);
  const settled = () => starts.delete(start);
  start.then(settled, settled);
  return start;
}

/** Closes the apps a spec file left open, once every start under way has ended (spec-cleanup). */
export async function closeLeftoverApps(): Promise<void> {
  await Promise.allSettled([...starts]);
  await Promise.all([...openApps].map((close) => close()));
}
