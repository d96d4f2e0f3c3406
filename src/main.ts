import './compile-cache';
import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { Logger } from '@nestjs/common';
import { FirstRunKey } from './access/admin/first-run-key';
import { createApp } from './bootstrap';
import { AppConfig, ConfigError, loadConfig } from './platform/config/app-config';
import { DataDirLock, DataDirLockedError } from './platform/database/data-dir-lock';

const logger = new Logger('Main');

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    // Validated here first so that a bad variable stops start-up with one clear line.
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  if (config.runtime.heapGrowingPercent > 0) {
    // Under load V8 lets the old generation grow to several times its live data before it
    // collects; 1.5 times keeps a busy instance under 200 MB for a few % of CPU (docs/adr/0009).
    setFlagsFromString(`--heap-growing-percent=${config.runtime.heapGrowingPercent}`);
  }
  try {
    // Claimed before anything starts, so that a second process on the directory stops at once.
    if (!config.database.url) DataDirLock.acquire(config.database.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const app = await createApp(config);
  await app.listen(config.http.port, config.http.host);
  logger.log(
    `Serving the API at ${config.http.publicBaseUrl} (docs: ${config.http.publicBaseUrl}/docs)`,
  );
  app.get(FirstRunKey).announce();

  // Stop accepting, let in-flight requests finish, close the pools, exit 0; after the grace
  // period, exit 1 whatever is left. (Nest's own hooks re-raise the signal: the exit code would
  // not say the shutdown was clean.)
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.log(
        `${signal}: finishing in-flight requests (at most ${config.http.shutdownGraceMs} ms).`,
      );
      setTimeout(() => {
        logger.error('Grace period over: exiting with requests still in flight.');
        process.exit(1);
      }, config.http.shutdownGraceMs).unref();
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error(`Shutdown failed: ${String(error)}`);
          process.exit(1);
        },
      );
    });
  }
}

void main();
