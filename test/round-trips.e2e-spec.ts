import Redis from 'ioredis';
import { Client } from 'pg';
import { CancelLapsedOrders } from '../src/store/application/cancel-lapsed-orders.use-case';
import { apiClient } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * What one request costs in round trips, counted at the drivers (the real ones: the spies only
 * record the calls they pass on): the hot path the benchmark measures must stay one statement and
 * one rate-limit command, with no database look-up for a key the instance already knows.
 */
describe('round trips per request', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let statements: string[];
  let redisCommands: string[];

  beforeAll(async () => {
    t = await startTestApp({
      // The key stays known for the whole test, however slow the machine.
      API_KEY_CACHE_TTL_MS: '5000',
    });
    api = apiClient(t.url, t.auth);
    await resetDatabase(t.dataSource);
    await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
  });
  afterAll(() => t.close());

  beforeEach(() => {
    statements = [];
    redisCommands = [];
    const query = Client.prototype.query;
    jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args) {
      const config = args[0] as string | { text: string };
      statements.push(typeof config === 'string' ? config : config.text);
      return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
    });
    // The lapsed-order sweeper runs on its own timer, in transactions of its own: held still here.
    jest.spyOn(CancelLapsedOrders.prototype, 'execute').mockResolvedValue([]);
    const sendCommand = Redis.prototype.sendCommand;
    jest.spyOn(Redis.prototype, 'sendCommand').mockImplementation(function (this: Redis, command) {
      redisCommands.push(command.name);
      return sendCommand.call(this, command);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  /** The statements of the requests, without the background jobs' (last use, pruning, webhooks). */
  const perRequest = () =>
    statements.filter(
      (text) =>
        !/^(UPDATE "api_keys"|DELETE FROM idempotency_keys|SELECT 1 FROM webhook_deliveries)/.test(
          text,
        ),
    );

  it.each([
    ['GET /v1/pets', () => api.get('/v1/pets?status=available&limit=20'), 200],
    ['GET /v1/pets?after', () => api.get('/v1/pets?limit=5&after=0'), 200],
    ['GET /v1/pets/{petId}', () => api.get('/v1/pets/1'), 200],
  ])('%s with a known key: one SQL statement, one Redis command', async (_, send, status) => {
    for (let i = 0; i < 10; i++) expect((await send()).status).toBe(status);
    expect(perRequest()).toHaveLength(10);
    expect(perRequest().filter((text) => /api_keys/.test(text))).toEqual([]);
    expect(redisCommands).toEqual(Array(10).fill('evalsha'));
  });

  it('POST /v1/pets with a known key: the pet and its event in one transaction, one Redis command', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await api.post('/v1/pets').send({ name: 'Tom', categoryId: 2 })).status).toBe(201);
    }
    // BEGIN (with its statement timeout), the pet, its event (docs/adr/0030), COMMIT.
    // The pet's statement also names its category; the last table it inserts into is its own.
    const shapes = perRequest().map(
      (text) =>
        /^\s*(BEGIN|COMMIT)/.exec(text)?.[1] ??
        [...text.matchAll(/INSERT INTO (\w+)/g)].at(-1)?.[1],
    );
    expect(shapes).toEqual(Array(10).fill(['BEGIN', 'pets', 'events', 'COMMIT']).flat());
    expect(redisCommands).toEqual(Array(10).fill('evalsha'));
  });
});
