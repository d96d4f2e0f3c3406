import type { StartedPeers } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as { testPeers?: StartedPeers }).testPeers;
  await started?.redis?.stop();
  await started?.redisCluster?.stop();
  await started?.pgbouncer?.stop();
  await started?.postgres?.stop();
  if (started?.embeddedPostgres) {
    await started.embeddedPostgres.server.stop();
    await started.embeddedPostgres.db.close();
  }
}
