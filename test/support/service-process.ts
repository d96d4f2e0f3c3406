import { ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from './http';
import { redisKeyPrefix } from './confinement';
import { freePort } from './peers/processes';
import { redisEnv } from './run-redis';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');

/**
 * Makes dist/ current once per test run, so that process-level tests run the code under test and
 * never a stale build (the marker names the run, set by the global setup). The build script
 * rebuilds only when a source is newer than its last build. One worker builds while the others
 * wait for it: a second build would rewrite dist/ under the first one's services.
 */
export function buildOnce(): void {
  const marker = join(ROOT, 'dist', `.built-for-test-run-${process.env.TEST_RUN_ID}`);
  const lock = join(tmpdir(), `pet-adoption-build-${process.env.TEST_RUN_ID}`);
  while (!existsSync(marker)) {
    try {
      mkdirSync(lock);
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      continue;
    }
    try {
      // The build script's own stamp tells `npm run apikey` (test/cli.e2e-spec.ts) it is current.
      if (!existsSync(marker))
        execSync('node scripts/build-if-stale.mjs', { cwd: ROOT, stdio: 'ignore' });
      writeFileSync(marker, '');
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** Every service process a spec started that has not exited yet. */
const running = new Set<ChildProcess>();

/**
 * Kills whatever a spec left running, after each spec file (test/support/spec-cleanup.ts): a test
 * that fails before it stops its service (one that should have refused to start, say) must not
 * keep Jest from exiting.
 */
export function killLeftoverServices(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote, so far. */
  output(): string;
  /** Resolves with the exit code when the process exits. */
  exited: Promise<number | null>;
  /** Whether it answered as live once (startService): an exit after that is a crash. */
  listened: boolean;
}

/** Starts the built service as its own process, without waiting for it to listen. */
export async function spawnService(
  env: Record<string, string | undefined>,
): Promise<ServiceProcess> {
  buildOnce();
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // As for the in-process apps (test-app.ts): a connection may take over 1 s on a busy machine.
      DATABASE_CONNECT_TIMEOUT_MS: '5000',
      // Its counters stay apart from any other user of the same Redis, as the in-process apps' do.
      REDIS_KEY_PREFIX: `${redisKeyPrefix()}${process.pid}:${port}:`,
      ...env,
      // The run's Redis (its Cluster with TEST_REDIS=cluster), unless `env` names another.
      ...redisEnv(env),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  running.add(child);
  const service: ServiceProcess = {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited: new Promise<number | null>((resolve) =>
      child.on('exit', (code) => {
        // The last output of a service that crashed after it started goes to the run's log: the
        // only trace of its cause besides the refused connections it leaves behind. A refusal to
        // start is the spec's to check, and many expect one.
        if (service.listened && code !== 0 && code !== null) {
          process.stderr.write(
            `Service on port ${port} exited with ${code}:\n${output.slice(-4000)}\n`,
          );
        }
        running.delete(child);
        resolve(code);
      }),
    ),
    listened: false,
  };
  return service;
}

/** Starts the built service as its own process and waits until it listens. */
export async function startService(
  env: Record<string, string | undefined>,
  timeoutMs = 20_000,
): Promise<ServiceProcess> {
  const service = await spawnService(env);
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void service.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline && exitCode === undefined) {
    const live = await request(service.url)
      .get('/health/live')
      .catch(() => undefined);
    if (live?.status === 200) {
      service.listened = true;
      return service;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  service.child.kill('SIGKILL');
  throw new Error(`The service did not start:\n${service.output()}`);
}

/** Stops a service process with SIGTERM and waits for it to exit. */
export async function stopService(service: ServiceProcess | undefined): Promise<void> {
  if (!service || service.child.exitCode !== null || service.child.signalCode !== null) return;
  service.child.kill('SIGTERM');
  await service.exited;
}
