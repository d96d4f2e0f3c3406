import { ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePorts, startProcess, stopProcess, waitForPort, waitUntil } from './processes';
import { missingRedisPrograms, redisCli } from './redis-cli';

/**
 * A throw-away Redis Cluster of primaries only, on free loopback ports, from the machine's
 * redis-server and redis-cli; its node files in a temporary folder, nothing saved.
 */
export class RedisCluster {
  private constructor(
    private readonly children: ChildProcess[],
    private readonly directory: string,
    readonly ports: number[],
  ) {}

  /** The seed nodes, as REDIS_CLUSTER_NODES takes them. */
  get nodes(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  static available(): boolean {
    return missingRedisPrograms().length === 0;
  }

  static async start(primaries = 3): Promise<RedisCluster> {
    const directory = mkdtempSync(join(tmpdir(), 'pet-adoption-redis-cluster-'));
    // Each node also listens on a cluster bus port, named here rather than left at port + 10000,
    // which may be taken or out of range.
    const ports = await freePorts(primaries * 2);
    const [clients, buses] = [ports.slice(0, primaries), ports.slice(primaries)];
    const children = clients.map((port, i) =>
      startProcess('redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-port',
        String(buses[i]),
        '--cluster-config-file',
        join(directory, `nodes-${port}.conf`),
        '--dir',
        directory,
        '--save',
        '',
        '--appendonly',
        'no',
      ]),
    );
    const cluster = new RedisCluster(children, directory, clients);
    try {
      await Promise.all(clients.map((port) => waitForPort('127.0.0.1', port, 'redis-server')));
      await promisify(execFile)(
        'redis-cli',
        [
          '--cluster',
          'create',
          ...clients.map((port) => `127.0.0.1:${port}`),
          '--cluster-replicas',
          '0',
          '--cluster-yes',
        ],
        { timeout: 30_000 },
      );
      await waitUntil(
        async () =>
          (await Promise.all(clients.map((port) => redisCli(port, 'cluster', 'info')))).every(
            (info) => info.includes('cluster_state:ok'),
          ),
        'the Redis Cluster to be ready (cluster_state:ok on every node)',
        20_000,
      );
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((child) => stopProcess(child)));
    rmSync(this.directory, { recursive: true, force: true });
  }
}
