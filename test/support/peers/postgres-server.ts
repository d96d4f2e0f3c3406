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
 * data in a temporary folder (no fsync, and unless `durable` no synchronous commit: nothing here
 * must survive a crash). For tests that need a real server where the run otherwise uses the
 * embedded engine, which serves a single session, and for tests that restart the server.
 */
export class PostgresServer {
  private child?: ChildProcess;

  private constructor(
    private readonly directory: string,
    readonly port: number,
    /** The `-c` settings the postmaster runs with, the same on every start. */
    private readonly settings: string[],
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static available(): boolean {
    return programs() !== undefined;
  }

  /**
   * `durable`: every commit is written to the server's log before it is acknowledged
   * (`synchronous_commit` on), so that a commit survives the server's own crash (`restart`
   * `immediate`); fsync stays off, as the machine itself does not crash in a test.
   */
  static async start({ durable = false } = {}): Promise<PostgresServer> {
    const { initdb } = programs()!;
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
    const settings = ['listen_addresses=127.0.0.1', 'fsync=off'];
    if (!durable) settings.push('synchronous_commit=off');
    const server = new PostgresServer(directory, port, settings);
    await server.run();
    return server;
  }

  /** Starts the postmaster on this server's data and port, and waits until it runs queries. */
  private async run(): Promise<void> {
    const { directory, port, settings } = this;
    const args = ['-D', join(directory, 'data'), '-p', String(port), '-k', directory];
    this.child = spawn(programs()!.postgres, [...args, ...settings.flatMap((s) => ['-c', s])], {
      ...unprivilegedUser('PostgreSQL'),
      stdio: 'ignore',
    });
    await waitForPort('127.0.0.1', this.port, 'postgres');
    await this.ready();
  }

  /**
   * Stops the server and starts it again on the same data and port, `downForMs` after it exited.
   * `fast` (SIGINT, as `pg_ctl stop -m fast`) ends every session and writes a checkpoint;
   * `immediate` (SIGQUIT) kills every process at once, so the server starts with crash recovery
   * from its write-ahead log, as after a crash.
   */
  async restart(shutdown: 'fast' | 'immediate', downForMs = 0): Promise<void> {
    const child = this.child!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(shutdown === 'fast' ? 'SIGINT' : 'SIGQUIT');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, downForMs));
    await this.run();
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
