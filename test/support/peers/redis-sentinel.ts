import { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, startProcess, stopProcess, waitForPort, waitUntil } from './processes';
import { missingRedisPrograms, redisCli } from './redis-cli';

/**
 * A throw-away Sentinel setup on free loopback ports: a primary, one replica of it, and one
 * Sentinel monitoring them (quorum 1, quick to act), from the machine's redis-server (run with
 * `--sentinel`) and redis-cli. Files in a temporary folder, nothing saved.
 */
export class RedisSentinel {
  private constructor(
    private readonly children: ChildProcess[],
    private readonly directory: string,
    readonly name: string,
    /** The two servers; which of them is the primary changes with a failover. */
    readonly serverPorts: number[],
    readonly sentinelPort: number,
  ) {}

  /** The Sentinels, as REDIS_SENTINELS takes them. */
  get sentinels(): string {
    return `127.0.0.1:${this.sentinelPort}`;
  }

  static available(): boolean {
    return missingRedisPrograms().length === 0;
  }

  static async start(name = 'pet-adoption'): Promise<RedisSentinel> {
    const directory = mkdtempSync(join(tmpdir(), 'pet-adoption-redis-sentinel-'));
    const [primary, replica, sentinel] = await freePorts(3);
    const server = (port: number, ...extra: string[]) =>
      startProcess('redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        directory,
        '--save',
        '',
        '--appendonly',
        'no',
        ...extra,
      ]);
    const children = [
      server(primary),
      server(replica, '--replicaof', '127.0.0.1', String(primary)),
    ];
    // Sentinel rewrites its configuration file: it must be a file of its own, in the folder.
    const conf = join(directory, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${sentinel}`,
        'bind 127.0.0.1',
        `dir ${directory}`,
        `sentinel monitor ${name} 127.0.0.1 ${primary} 1`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        '',
      ].join('\n'),
    );
    children.push(startProcess('redis-server', [conf, '--sentinel']));
    const setup = new RedisSentinel(children, directory, name, [primary, replica], sentinel);
    try {
      await Promise.all(
        [primary, replica, sentinel].map((port) => waitForPort('127.0.0.1', port, 'redis')),
      );
      await waitUntil(
        async () =>
          (await redisCli(replica, 'info', 'replication')).includes('master_link_status:up'),
        'the replica to follow the primary',
      );
      await waitUntil(
        async () => (await setup.sentinelSees()).replicas === 1,
        'the Sentinel to know the replica',
        20_000,
      );
      return setup;
    } catch (error) {
      await setup.stop();
      throw error;
    }
  }

  /** The port of the server the Sentinel names as the primary. */
  async primaryPort(): Promise<number> {
    const answer = await redisCli(
      this.sentinelPort,
      'sentinel',
      'get-master-addr-by-name',
      this.name,
    );
    return Number(answer.trim().split('\n')[1]);
  }

  /**
   * A planned failover: waits until the replica has every write of the primary, makes the
   * Sentinel promote it (SENTINEL FAILOVER), and waits until the new primary acts as one and the
   * old one follows it (from then on it refuses writes, so none can be lost on it).
   */
  async failover(): Promise<{ from: number; to: number }> {
    const from = await this.primaryPort();
    const to = this.serverPorts.find((port) => port !== from)!;
    const field = async (port: number, name: string) =>
      new RegExp(`^${name}:(\\d+)`, 'm').exec(await redisCli(port, 'info', 'replication'))?.[1];
    await waitUntil(
      async () =>
        (await field(from, 'master_repl_offset')) === (await field(to, 'slave_repl_offset')),
      'the replica to have every write of the primary',
    );
    await redisCli(this.sentinelPort, 'sentinel', 'failover', this.name);
    await waitUntil(
      async () =>
        (await this.primaryPort()) === to &&
        (await redisCli(to, 'info', 'replication')).includes('role:master') &&
        (await redisCli(from, 'info', 'replication')).includes(`master_port:${to}`),
      'the Sentinel failover to complete',
      30_000,
    );
    return { from, to };
  }

  /** What the Sentinel knows of the monitored primary: its healthy replicas. */
  private async sentinelSees(): Promise<{ replicas: number }> {
    const answer = await redisCli(this.sentinelPort, 'sentinel', 'master', this.name);
    const fields = answer.trim().split('\n');
    return { replicas: Number(fields[fields.indexOf('num-slaves') + 1]) };
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((child) => stopProcess(child)));
    rmSync(this.directory, { recursive: true, force: true });
  }
}
