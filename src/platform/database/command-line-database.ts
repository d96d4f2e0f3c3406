import { AppConfig } from '../config/app-config';
import { DataDirLock, DataDirLockedError } from './data-dir-lock';
import { runningEngineUrl } from './embedded-postgres';

/**
 * The database the command line works on. The embedded one's files are one process's: when no
 * one holds them, this process takes them; while the service runs on them, this process talks
 * to the service's engine at the loopback address the service wrote into DATA_DIR, and never
 * opens the files itself. A holder that has not written its address yet is refused, naming it.
 */
export function databaseOfCommandLine(config: AppConfig): AppConfig {
  if (config.database.url) return config;
  try {
    DataDirLock.acquire(config.database.dataDir);
    return config;
  } catch (error) {
    const url =
      error instanceof DataDirLockedError ? runningEngineUrl(config.database.dataDir) : null;
    if (url === null) throw error;
    // The engine answers one statement at a time: one connection is all it can use.
    return Object.assign(new AppConfig(), {
      ...config,
      database: { ...config.database, url, poolSize: 1 },
    });
  }
}
