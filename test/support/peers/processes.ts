import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * Whether `path` is a program this process may run. An empty file mounted over a program (as CI
 * hides nginx and PgBouncer to play a fresh machine) exists but is not one.
 */
export function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path of an executable found on PATH, or undefined. */
export function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, name))
    .find(executable);
}

/** A program on PATH or in /usr/sbin, where Debian installs daemons that not every PATH holds. */
export function program(name: string): string | undefined {
  return onPath(name) ?? (executable(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : undefined);
}

/**
 * Who a server that refuses root (PostgreSQL, PgBouncer) runs as when the tests run as root: the
 * "postgres" (or "nobody") user. Undefined when the tests do not run as root.
 */
export function unprivilegedUser(program: string): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name]));
      const gid = Number(execFileSync('id', ['-g', name]));
      return { uid, gid };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error(`Running as root, ${program} needs an unprivileged user such as "postgres".`);
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts TCP connections at host:port within the timeout. */
export function answers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Waits until host:port accepts connections, or throws after `timeoutMs`. */
export async function waitForPort(
  host: string,
  port: number,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(host, port, 500))) {
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${host}:${port}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts a peer process in the background; its output is not needed. */
export function startProcess(command: string, args: string[]): ChildProcess {
  return spawn(command, args, { stdio: 'ignore' });
}

/** Stops a peer process and waits for it to exit. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** `count` distinct loopback ports nothing listens on right now. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** Polls `check` until it holds, or throws naming `what` after `timeoutMs`. */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
