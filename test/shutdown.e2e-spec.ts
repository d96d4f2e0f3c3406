import { ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { request } from './support/http';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';

const MAIN = join(__dirname, '..', 'dist', 'src', 'main.js');

/** Starts the built service as its own process and waits until it listens. */
async function startService(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Its counters stay apart from any other user of the same Redis, as the in-process apps' do.
      REDIS_KEY_PREFIX: `pet-adoption-test:${process.pid}:shutdown:`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      (
        await request(url)
          .get('/health/live')
          .catch(() => undefined)
      )?.status === 200
    )
      return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('The service did not start.');
}

describe('graceful shutdown of the service process', () => {
  let proxy: TcpProxy;
  let keys: TestApp;

  beforeAll(async () => {
    // The process runs what `npm run build` made; build it if this run has not.
    if (!existsSync(MAIN)) execSync('npx nest build', { stdio: 'ignore' });
    const database = new URL(process.env.DATABASE_URL!);
    proxy = await new TcpProxy(database.hostname, Number(database.port || 5432)).start();
    keys = await startTestApp();
  }, 120_000);
  afterAll(async () => {
    await keys.close();
    await proxy.stop();
  });

  it('on SIGTERM, finishes every in-flight request, then exits 0', async () => {
    const viaProxy = new URL(process.env.DATABASE_URL!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const { child, url } = await startService({
      DATABASE_URL: viaProxy.toString(),
      API_KEY_PREFIX: 'pet_test_',
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const { auth } = await keys.issueKey();

    // Requests hang on a stalled database while the signal arrives.
    proxy.stall();
    const inFlight = Array.from({ length: 10 }, () =>
      request(url).get('/v1/pets?limit=1').set(auth),
    );
    const responses = Promise.all(inFlight.map((test) => test.then((r) => r.status)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.resume();

    expect(await responses).toEqual(Array(10).fill(200));
    expect(await exited).toBe(0);
  });
});
