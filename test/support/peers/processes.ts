import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { portRange } from '../confinement';

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

/** Whether a loopback port can be listened on right now; its number if so. */
async function listenable(port: number): Promise<number | undefined> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!listening) return undefined;
  const { port: bound } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return bound;
}

/**
 * A loopback port nothing listens on right now: one the system gives, or, with TEST_PORTS, one of
 * that range (test/support/confinement.ts), tried in random order.
 */
export async function freePort(): Promise<number> {
  const range = portRange();
  if (!range) return (await listenable(0))!;
  const size = range.to - range.from + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = await listenable(range.from + ((start + i) % size));
    if (port !== undefined) return port;
  }
  throw new Error(`No port of TEST_PORTS=${process.env.TEST_PORTS} is free.`);
}

/**
 * The port to listen on: 0 (the system picks a free one as it binds, with no race), or with
 * TEST_PORTS a free one of the range.
 */
export function portToListenOn(): Promise<number> {
  return portRange() ? freePort() : Promise.resolve(0);
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
