import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from './support/fresh-database';
import { apiClient, expectError, request } from './support/http';
import {
  buildOnce,
  spawnService,
  startService,
  stopService,
  ServiceProcess,
} from './support/service-process';
import { startTestApp } from './support/test-app';

jest.setTimeout(90_000);

/** Resolves once the service process answers its liveness check; never, if it exits first. */
async function answers(service: ServiceProcess): Promise<void> {
  while (service.child.exitCode === null) {
    const live = await request(service.url)
      .get('/health/live')
      .catch(() => undefined);
    if (live?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise(() => undefined);
}

/** docs/operations.md, "Deployment safety": what operators do every day loses nothing. */
describe('deployment safety', () => {
  beforeAll(() => buildOnce(), 120_000);

  it('several instances starting at once on a fresh database all come up, and apply the schema once', async () => {
    const database = await freshDatabase();
    try {
      const started = await Promise.allSettled(
        Array.from({ length: 3 }, () =>
          startTestApp({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '2' }),
        ),
      );
      const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      try {
        // Every instance that did start is closed below, so that a failure cannot keep Jest up.
        expect(started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []))).toEqual(
          [],
        );
        for (const instance of instances) {
          await apiClient(instance.url, instance.auth)
            .post('/v1/pets')
            .send({ name: 'Rex', categoryId: 1 })
            .expect(201);
        }
        const applied = await instances[0].dataSource.query(
          'SELECT name, count(*)::int AS times FROM migrations GROUP BY name',
        );
        expect(applied).toHaveLength(instances[0].dataSource.migrations.length);
        expect(applied.every((row: { times: number }) => row.times === 1)).toBe(true);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
    } finally {
      await database.drop();
    }
  });

  describe('two processes on one embedded DATA_DIR', () => {
    let dataDir: string;
    let first: ServiceProcess | undefined;
    let parent: string;
    beforeAll(() => {
      parent = mkdtempSync(join(tmpdir(), 'pet-adoption-data-'));
      // As on a first run: the directory does not exist yet.
      dataDir = join(parent, 'data');
    });
    afterAll(async () => {
      // What a failed test left running besides, the spec cleanup kills.
      await stopService(first);
      rmSync(parent, { recursive: true, force: true });
    });
    const embedded = () => ({ DATABASE_URL: undefined, DATA_DIR: dataDir });
    // The embedded engine's first start creates its files (about 5 s alone); on a 2-core machine
    // loaded by other suites it took over the default 20 s.
    const startEmbedded = () => startService(embedded(), 40_000);

    it('the second refuses in one line naming the directory and the holder; the first keeps serving and its data', async () => {
      first = await startEmbedded();
      const key = /Bearer (pet_live_[A-Za-z0-9_-]{43})/.exec(first.output())![1];
      const api = apiClient(first.url, { authorization: `Bearer ${key}` });
      const rex = await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);

      const second = await spawnService({ ...embedded(), LOG_LEVEL: 'log' });
      expect(await Promise.race([second.exited, answers(second).then(() => 'running')])).toBe(1);
      expect(second.output().trim().split('\n')).toEqual([
        `DATA_DIR ${dataDir} is in use by process ${first.child.pid}: stop it, or give this process another DATA_DIR.`,
      ]);

      const tom = await api.post('/v1/pets').send({ name: 'Tom', categoryId: 2 }).expect(201);
      expect((await api.get('/v1/pets')).body).toEqual([rex.body, tom.body]);

      // Stopped and started again, it has lost nothing that was answered.
      await stopService(first);
      first = await startEmbedded();
      const again = apiClient(first.url, { authorization: `Bearer ${key}` });
      expect((await again.get('/v1/pets')).body).toEqual([rex.body, tom.body]);
      expectError(await apiClient(first.url).get('/v1/pets'), 401, 'unauthorized');
    });

    it('several started at once: exactly one serves, the others refuse', async () => {
      await stopService(first);
      const racers = await Promise.all(
        Array.from({ length: 4 }, () => spawnService({ ...embedded() })),
      );
      const outcomes = await Promise.all(
        racers.map(async (racer) => ({
          racer,
          exited: await Promise.race([racer.exited, answers(racer).then(() => 'running')]),
        })),
      );
      const running = outcomes.filter((o) => o.exited === 'running');
      expect(running).toHaveLength(1);
      for (const { racer, exited } of outcomes.filter((o) => o.exited !== 'running')) {
        expect(exited).toBe(1);
        expect(racer.output()).toMatch(/is in use by process \d+/);
      }
      first = running[0].racer;
    });
  });
});
