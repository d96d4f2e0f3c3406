import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { program as findProgram, stopProcess, waitForPort } from './processes';

const program = () => findProgram('nginx');

/** A real nginx in the foreground, with a configuration of the test's, in a folder of its own. */
export class Nginx {
  private constructor(
    private readonly child: ChildProcess,
    private readonly prefix: string,
  ) {}

  static available(): boolean {
    return program() !== undefined;
  }

  /** Starts nginx with `config` and waits until it listens on `port`. */
  static async start(config: string, port: number): Promise<Nginx> {
    const prefix = mkdtempSync(join(tmpdir(), 'pet-adoption-nginx-'));
    // Run as root, nginx's workers are "nobody": they write their temporary files here.
    chmodSync(prefix, 0o777);
    mkdirSync(join(prefix, 'logs'), { mode: 0o777 });
    writeFileSync(join(prefix, 'nginx.conf'), config);
    const child = spawn(
      program()!,
      [
        '-p',
        prefix,
        '-c',
        join(prefix, 'nginx.conf'),
        '-g',
        `daemon off; pid ${join(prefix, 'nginx.pid')};`,
      ],
      { stdio: 'ignore' },
    );
    await waitForPort('127.0.0.1', port, 'nginx');
    return new Nginx(child, prefix);
  }

  async stop(): Promise<void> {
    await stopProcess(this.child);
    rmSync(this.prefix, { recursive: true, force: true });
  }
}
