import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Nginx } from './nginx';
import { PgBouncer } from './pgbouncer';
import { PostgresServer } from './postgres-server';
import { missingRedisPrograms } from './redis-cli';

/**
 * The peers a fresh machine of the project's kind (Node.js, PostgreSQL, Redis) may lack: the specs
 * that need one are skipped there, and named at the end of the run with the Debian package that
 * brings it (docs/adr/0028, CONTRACT.md "Deployment safety").
 */
export const optionalPeers = {
  nginx: { available: () => Nginx.available(), debian: 'nginx-light' },
  pgbouncer: { available: () => PgBouncer.available(), debian: 'pgbouncer' },
  // A spec that restarts PostgreSQL starts a server of its own, never touching the run's.
  'initdb and postgres': { available: () => PostgresServer.available(), debian: 'postgresql' },
  // The Redis Cluster and Sentinel specs start servers of their own, with the machine's programs.
  'redis-server and redis-cli': {
    available: () => missingRedisPrograms().length === 0,
    debian: 'redis-server',
  },
};

export type OptionalPeer = keyof typeof optionalPeers;

/** TEST_PEERS=required (as CI sets it): a missing peer fails the run instead of skipping specs. */
export const peersRequired = () => process.env.TEST_PEERS === 'required';

/** The optional peers this machine lacks, each with its Debian package. */
export function missingOptionalPeers(): string[] {
  return Object.entries(optionalPeers)
    .filter(([, peer]) => !peer.available())
    .map(([name, peer]) => `${name} (Debian: ${peer.debian})`);
}

/** Where the specs of one run note what they skipped, for the global teardown's one line. */
const skipLog = () => join(tmpdir(), `pet-adoption-skipped-${process.env.TEST_RUN_ID ?? 'run'}`);

/**
 * `describe`, when the machine has `peer`; otherwise the block is skipped and noted for the
 * run's last line, or, with TEST_PEERS=required, the spec fails saying what is missing.
 */
export function describeWithPeer(peer: OptionalPeer, name: string, body: () => void): void {
  if (optionalPeers[peer].available()) {
    describe(name, body);
    return;
  }
  const { debian } = optionalPeers[peer];
  if (peersRequired()) {
    describe(name, () => {
      it(`needs ${peer}`, () => {
        throw new Error(`TEST_PEERS=required, and ${peer} is missing (Debian: ${debian}).`);
      });
    });
    return;
  }
  const spec = relative(process.cwd(), expect.getState().testPath ?? name);
  appendFileSync(skipLog(), `${spec} (Debian: ${debian})\n`);
  describe.skip(name, body);
}

/** The run's one line naming each skipped spec and its package (empty when none was), cleared. */
export function takeSkipLine(): string {
  let noted: string[];
  try {
    noted = readFileSync(skipLog(), 'utf8').split('\n').filter(Boolean);
  } catch {
    return '';
  }
  rmSync(skipLog(), { force: true });
  const unique = [...new Set(noted)];
  return `Skipped for want of a peer (set TEST_PEERS=required to fail instead): ${unique.join('; ')}.`;
}
