import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import NodeEnvironment from 'jest-environment-node';
import { randomBytes } from 'node:crypto';
import { useWorkerDatabase } from './confinement';

/**
 * The e2e specs' environment: Node's, in which the worker's own database is DATABASE_URL
 * (test/support/worker-databases.ts). It is set on the worker's real process.env, before the
 * file's copy of it is made, so that a child process spawned without an `env` of its own gets it
 * too.
 *
 * So is a WEBHOOK_SECRETS_KEY, one for the worker's life, unless the run has one: every instance
 * keeps webhook secrets encrypted, as production is told to, and none logs at its start that they
 * are not (hundreds of error lines a run). The specs of plain-text secrets set it blank.
 */
export default class WorkerEnvironment extends NodeEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    useWorkerDatabase(process.env);
    process.env.WEBHOOK_SECRETS_KEY ||= randomBytes(32).toString('base64');
    super(config, context);
  }
}
