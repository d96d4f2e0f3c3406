import type { StartedPeers } from './global-setup';
import { takeSkipLine } from './peers/optional-peers';

export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as { testPeers?: StartedPeers }).testPeers;
  await started?.redis?.stop();
  await started?.redisCluster?.stop();
  await started?.workerDatabases?.drop();
  await started?.pgbouncer?.stop();
  await started?.postgres?.stop();
  // The run's last line: what a fresh machine did not test, and which package would let it.
  const skipped = takeSkipLine();
  if (skipped) process.stdout.write(`\n${skipped}\n`);
}
