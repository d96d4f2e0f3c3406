import { request } from './support/http';
import { buildOnce, startService } from './support/service-process';
import { databaseProxy, TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';

describe('graceful shutdown of the service process', () => {
  let proxy: TcpProxy;
  let databaseUrl: string;
  let keys: TestApp;

  beforeAll(async () => {
    buildOnce();
    ({ proxy, url: databaseUrl } = await databaseProxy());
    keys = await startTestApp();
  }, 120_000);
  afterAll(async () => {
    await keys.close();
    await proxy.stop();
  });

  it('on SIGTERM, finishes every in-flight request, then exits 0', async () => {
    const { child, url, exited } = await startService({
      DATABASE_URL: databaseUrl,
      API_KEY_PREFIX: 'pet_test_',
    });
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
    // A service process starts, serves and stops here: 4.6 s alone, over 5 s on a loaded 2-core
    // machine, so the margin is for the load, not for the service.
  }, 60_000);
});
