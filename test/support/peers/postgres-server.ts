import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, onPath, stopProcess, unprivilegedUser, waitForPort } from './processes';

interface Programs {
  initdb: string;
  postgres: string;
}

/** PostgreSQL's server programs: on PATH, or in Debian's versioned folder (newest first). */
function programs(): Programs | undefined {
  const initdb = onPath('initdb');
  const postgres = onPath('postgres');
  if (initdb && postgres) return { initdb, postgres };
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  if (version === undefined) return undefined;
  const bin = join(root, version, 'bin');
  return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') };
}

/**
 * A throw-away PostgreSQL server from the machine's own binaries, on a free loopback port, its
 * data in a temporary folder (no fsync: nothing here must survive a crash). For tests that need a
 * real server where the run otherwise uses the embedded engine, which serves a single session.
 */
export class PostgresServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly directory: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static available(): boolean {
    return programs() !== undefined;
  }

  static async start(): Promise<PostgresServer> {
    const { initdb, postgres } = programs()!;
    // PostgreSQL refuses to run as root.
    const user = unprivilegedUser('PostgreSQL');
    const directory = mkdtempSync(join(tmpdir(), 'pet-adoption-postgres-'));
    if (user) chownSync(directory, user.uid, user.gid);
    const data = join(directory, 'data');
    execFileSync(initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], {
      ...user,
      stdio: 'ignore',
    });
    const port = await freePort();
    const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off'];
    const child = spawn(
      postgres,
      ['-D', data, '-p', String(port), '-k', directory, ...settings.flatMap((s) => ['-c', s])],
      { ...user, stdio: 'ignore' },
    );
    await waitForPort('127.0.0.1', port, 'postgres');
    const server = new PostgresServer(child, directory, port);
    await server.ready();
    return server;
  }

  /**
   * Waits until the server runs queries: it listens before its start-up is over, and meanwhile
   * refuses sessions ("the database system is starting up").
   */
  private async ready(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const client = new Client({ connectionString: this.url });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  async stop(): Promise<void> {
    await stopProcess(this.child);
    rmSync(this.directory, { recursive: true, force: true });
  }
}
