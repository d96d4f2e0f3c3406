import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { onPath } from './processes';

const run = promisify(execFile);

/** The Redis programs the Cluster and Sentinel peers need that this machine lacks. */
export function missingRedisPrograms(): string[] {
  return ['redis-server', 'redis-cli'].filter((name) => onPath(name) === undefined);
}

/** Runs one command with the machine's redis-cli against a loopback port; returns its output. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    timeout: 10_000,
  });
  return stdout;
}
