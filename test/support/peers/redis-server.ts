import { ChildProcess } from 'node:child_process';
import { freePort, onPath, startProcess, stopProcess, waitForPort } from './processes';

/** A throw-away redis-server on a free loopback port, keeping nothing on disk. */
export class RedisServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static available(): boolean {
    return onPath('redis-server') !== undefined;
  }

  static async start(extraArgs: string[] = []): Promise<RedisServer> {
    const port = await freePort();
    const child = startProcess('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      ...extraArgs,
    ]);
    await waitForPort('127.0.0.1', port, 'redis-server');
    return new RedisServer(child, port);
  }

  stop(): Promise<void> {
    return stopProcess(this.child);
  }
}
