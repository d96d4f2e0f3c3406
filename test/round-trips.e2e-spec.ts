import Redis from 'ioredis';
import { Client } from 'pg';
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
    const sendCommand = Redis.prototype.sendCommand;
    jest.spyOn(Redis.prototype, 'sendCommand').mockImplementation(function (this: Redis, command) {
      redisCommands.push(command.name);
      return sendCommand.call(this, command);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  /** The statements of the requests, without the background jobs' (last use, pruning). */
  const perRequest = () =>
    statements.filter((text) => !/^(UPDATE "api_keys"|DELETE FROM idempotency_keys)/.test(text));

  it.each([
    ['GET /v1/pets', () => api.get('/v1/pets?status=available&limit=20'), 200],
    ['GET /v1/pets?after', () => api.get('/v1/pets?limit=5&after=0'), 200],
    ['GET /v1/pets/{petId}', () => api.get('/v1/pets/1'), 200],
    ['POST /v1/pets', () => api.post('/v1/pets').send({ name: 'Tom', categoryId: 2 }), 201],
  ])('%s with a known key: one SQL statement, one Redis command', async (_, send, status) => {
    for (let i = 0; i < 10; i++) expect((await send()).status).toBe(status);
    expect(perRequest()).toHaveLength(10);
    expect(perRequest().filter((text) => /api_keys/.test(text))).toEqual([]);
    expect(redisCommands).toEqual(Array(10).fill('evalsha'));
  });
});
