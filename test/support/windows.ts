/**
 * Waits, if need be, until the current UTC minute has at least `seconds` left, so that a test
 * counting requests within one minute window cannot straddle two. The caller's timeout must
 * allow for the wait.
 */
export async function awayFromMinuteEnd(seconds = 5): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
