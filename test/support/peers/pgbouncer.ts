import { ChildProcess, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  freePort,
  program as findProgram,
  stopProcess,
  unprivilegedUser,
  waitForPort,
} from './processes';

const program = () => findProgram('pgbouncer');

/** A value for pgbouncer.ini or its auth file, where both quote with a doubled `"`. */
const quoted = (value: string) => `"${value.replace(/"/g, '""')}"`;

/**
 * A real PgBouncer in transaction mode in front of a PostgreSQL server, on a free loopback port,
 * with the configuration an operator starts from: every database of the server reachable through
 * it (`* =`), and no startup parameter ignored but `extra_float_digits`, so that a client sending
 * one such as `statement_timeout` is refused as it would be in production.
 */
export class PgBouncer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly directory: string,
    readonly port: number,
  ) {}

  static available(): boolean {
    return program() !== undefined;
  }

  /** Starts PgBouncer in front of the server `serverUrl` names, as the user and password it names. */
  static async start(serverUrl: string): Promise<PgBouncer> {
    const server = new URL(serverUrl);
    const user = decodeURIComponent(server.username || 'postgres');
    const directory = mkdtempSync(join(tmpdir(), 'pet-adoption-pgbouncer-'));
    const port = await freePort();
    // Clients are trusted; the password, if any, is what PgBouncer logs in to the server with.
    writeFileSync(
      join(directory, 'userlist.txt'),
      `${quoted(user)} ${quoted(decodeURIComponent(server.password))}\n`,
    );
    writeFileSync(
      join(directory, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${server.hostname.replace(/^\[|\]$/g, '')} port=${server.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        // No socket file: nothing of this PgBouncer outside its own folder.
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(directory, 'userlist.txt')}`,
        'pool_mode = transaction',
        'ignore_startup_parameters = extra_float_digits',
        `logfile = ${join(directory, 'pgbouncer.log')}`,
        '',
      ].join('\n'),
    );
    // PgBouncer refuses to run as root.
    const owner = unprivilegedUser('PgBouncer');
    if (owner) chownSync(directory, owner.uid, owner.gid);
    const child = spawn(program()!, [join(directory, 'pgbouncer.ini')], {
      ...owner,
      stdio: 'ignore',
    });
    const bouncer = new PgBouncer(child, directory, port);
    try {
      await waitForPort('127.0.0.1', port, 'pgbouncer');
    } catch (error) {
      const log = bouncer.log();
      await bouncer.stop();
      throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
    }
    return bouncer;
  }

  /** `databaseUrl` (a database on the server behind this PgBouncer), reached through it. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** What PgBouncer logged so far: refused startup parameters and server errors show here. */
  log(): string {
    try {
      return readFileSync(join(this.directory, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    await stopProcess(this.child);
    rmSync(this.directory, { recursive: true, force: true });
  }
}
