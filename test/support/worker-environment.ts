import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import NodeEnvironment from 'jest-environment-node';
import { useWorkerDatabase } from './confinement';

/**
 * The e2e specs' environment: Node's, in which the worker's own database is DATABASE_URL
 * (test/support/worker-databases.ts). It is set on the worker's real process.env, before the
 * file's copy of it is made, so that a child process spawned without an `env` of its own gets it
 * too.
 */
export default class WorkerEnvironment extends NodeEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    useWorkerDatabase(process.env);
    super(config, context);
  }
}
