import { Client } from 'pg';
import { freshDatabase } from './support/fresh-database';
import { apiClient } from './support/http';
import { freePort } from './support/peers/processes';
import { connectRunRedis, keysMatching } from './support/run-redis';
import { startTestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * A run keeps to the databases, Redis keys and ports its variables give it (docs/operations.md,
 * "Tests and CI", confined runs): what the suite's own helpers create, with TEST_PORTS,
 * TEST_DATABASE_PREFIX and TEST_REDIS_KEY_PREFIX set, is within them.
 */
describe('a confined run', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    process.env.TEST_PORTS = '47100-47199';
    process.env.TEST_DATABASE_PREFIX = 'confined_run';
    process.env.TEST_REDIS_KEY_PREFIX = `confined-run:${process.pid}:`;
  });
  afterEach(() => {
    for (const name of ['TEST_PORTS', 'TEST_DATABASE_PREFIX', 'TEST_REDIS_KEY_PREFIX']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('listens only on ports of TEST_PORTS', async () => {
    const ports = await Promise.all([1, 2, 3].map(() => freePort()));
    const receiver = await new WebhookReceiver().start();
    const app = await startTestApp();
    try {
      for (const port of [...ports, receiver.port, Number(new URL(app.url).port)]) {
        expect(port).toBeGreaterThanOrEqual(47100);
        expect(port).toBeLessThanOrEqual(47199);
      }
    } finally {
      await receiver.stop();
      await app.close();
    }
  });

  it('writes Redis keys only under TEST_REDIS_KEY_PREFIX, and names its databases by TEST_DATABASE_PREFIX', async () => {
    const app = await startTestApp();
    const redis = connectRunRedis();
    try {
      expect((await apiClient(app.url, app.auth).get('/v1/pets')).status).toBe(200);
      const keys = await keysMatching(redis, `confined-run:${process.pid}:*`);
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      await app.close();
      redis.disconnect();
    }
    if (process.env.TEST_EMBEDDED_DATABASE) return; // a server of its own, not a named database
    const database = await freshDatabase();
    try {
      expect(new URL(database.url).pathname).toMatch(/^\/confined_run_\d+_\d+_\d+$/);
      const client = new Client({ connectionString: database.url });
      await client.connect();
      await client.end();
    } finally {
      await database.drop();
    }
  });
});
