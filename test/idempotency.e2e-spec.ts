import { generateApiKey } from '@pet-adoption/api-keys';
import { Client, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../src/migrations';
import { IdempotencyKeysRecordResponses1795219600000 } from '../src/platform/idempotency/migrations/1795219600000-idempotency-keys-record-responses';
import { fingerprintOf } from '../src/platform/idempotency/idempotency';
import { IdempotencyKeyPruner } from '../src/platform/idempotency/idempotency-key-pruner';
import { freshDatabase } from './support/fresh-database';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

describe('POST /v1/pets with an Idempotency-Key', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  const countPets = async () =>
    Number((await t.dataSource.query('SELECT count(*) FROM pets'))[0].count);
  const create = (key: string, body: object, client = api) =>
    client.post('/v1/pets').set('idempotency-key', key).send(body);

  beforeAll(async () => {
    t = await startTestApp();
    api = apiClient(t.url, t.auth);
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  it('creates one pet for sequential retries, replaying the original 201', async () => {
    const first = await create('order-1', { name: 'Rex', categoryId: 1 });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const retry = await create('order-1', { name: 'Rex', categoryId: 1 });
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.headers['idempotent-replayed']).toBe('true');
    }
    expect(await countPets()).toBe(1);
  });

  it('creates exactly one pet for concurrent retries', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => create('order-2', { name: 'Tom', categoryId: 2 })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await countPets()).toBe(1);
  });

  it('answers 422 to the same key with a different body, and stores nothing more', async () => {
    await create('order-3', { name: 'Rex', categoryId: 1 });
    const response = expectError(
      await create('order-3', { name: 'Rex', categoryId: 2 }),
      422,
      'idempotency_key_reused',
    );
    expect(response.body.message).toMatch(/Idempotency-Key/);
    expect(await countPets()).toBe(1);
  });

  it('keeps the keys of different API keys apart', async () => {
    const other = apiClient(t.url, (await t.issueKey()).auth);
    const mine = await create('shared-name', { name: 'Rex', categoryId: 1 });
    const theirs = await create('shared-name', { name: 'Rex', categoryId: 1 }, other);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('creates a new pet for each request without a key', async () => {
    await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 });
    await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 });
    expect(await countPets()).toBe(2);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with spaces', 'my key'],
  ])('refuses an Idempotency-Key that is %s with a 400', async (_, key) => {
    expectError(await create(key, { name: 'Rex', categoryId: 1 }), 400, 'validation_failed');
    expect(await countPets()).toBe(0);
  });

  it('forgets keys after 24 hours: expired ones are deleted in batches, the others kept', async () => {
    await create('kept', { name: 'Rex', categoryId: 1 });
    await t.dataSource.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, response, created_at)
       SELECT 'key:old', 'expired-' || n, repeat('0', 64), '{}', now() - interval '24 hours 1 minute'
         FROM generate_series(1, 2500) AS n`,
    );
    const pruner = t.app.get(IdempotencyKeyPruner);
    expect(await pruner.prune()).toBe(2500);
    expect(
      await t.dataSource.query('SELECT scope, key FROM idempotency_keys ORDER BY key'),
    ).toEqual([{ scope: expect.stringMatching(/^key:/), key: 'kept' }]);
    expect(await pruner.prune()).toBe(0);
    // A kept key still replays.
    const retry = await create('kept', { name: 'Rex', categoryId: 1 });
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });

  it('deletes expired keys at most 1,000 per statement, and keeps a key not yet 24 hours old', async () => {
    await t.dataSource.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, response, created_at)
       SELECT 'key:old', 'expired-' || n, repeat('0', 64), '{}', now() - interval '24 hours 1 minute'
         FROM generate_series(1, 2500) AS n`,
    );
    await t.dataSource.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, response, created_at)
       VALUES ('key:old', 'recent', repeat('0', 64), '{}', now() - interval '23 hours 58 minutes')`,
    );
    // Rows deleted by each DELETE statement, counted at the driver (the spy passes every call on),
    // whether its caller takes the answer as a promise or in a callback.
    const deletedPerStatement: number[] = [];
    const record = (result?: QueryResult) => {
      if (result?.command === 'DELETE') deletedPerStatement.push(result.rowCount ?? 0);
    };
    const query = Client.prototype.query;
    jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args) {
      const last = args.length - 1;
      const callback = args[last] as unknown;
      if (typeof callback === 'function') {
        args[last] = (error: Error | null, result?: QueryResult) => {
          if (!error) record(result);
          (callback as (error: Error | null, result?: QueryResult) => void)(error, result);
        };
      }
      const answer = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (answer instanceof Promise) void answer.then(record, () => undefined);
      return answer as never;
    });
    try {
      expect(await t.app.get(IdempotencyKeyPruner).prune()).toBe(2500);
    } finally {
      jest.restoreAllMocks();
    }
    expect(Math.max(...deletedPerStatement)).toBeLessThanOrEqual(1000);
    expect(deletedPerStatement.reduce((sum, count) => sum + count, 0)).toBe(2500);
    expect(await t.dataSource.query('SELECT scope, key FROM idempotency_keys')).toEqual([
      { scope: 'key:old', key: 'recent' },
    ]);
  });

  it('validates the body before the key: an invalid body is a 400 and claims nothing', async () => {
    expectError(await create('order-4', { name: '' }), 400, 'validation_failed');
    expect((await create('order-4', { name: 'Rex', categoryId: 1 })).status).toBe(201);
  });
});

describe('idempotency keys claimed before responses were recorded', () => {
  // Starts a database of its own (a throw-away server on the embedded engine).
  jest.setTimeout(60_000);

  it('still replay the pet they created, after the migration', async () => {
    const database = await freshDatabase();
    try {
      // The schema as it was: claims pointed at the pet they created.
      const before = await new DataSource({
        type: 'postgres',
        url: database.url,
        migrations: migrations.slice(
          0,
          migrations.indexOf(IdempotencyKeysRecordResponses1795219600000),
        ),
      }).initialize();
      await before.runMigrations();
      const [pet] = await before.query(
        `INSERT INTO pets (name, category_id, status) VALUES ('Rex', 1, 'available') RETURNING id`,
      );
      const { key, prefix, hash } = generateApiKey('pet_test_');
      const [apiKey] = await before.query(
        `INSERT INTO api_keys (name, plan, prefix, hash) VALUES ('old', 'free', $1, $2) RETURNING id`,
        [prefix, hash],
      );
      await before.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, pet_id) VALUES ($1, 'retry', $2, $3)`,
        [`key:${apiKey.id}`, fingerprintOf(['Rex', 1, null]), pet.id],
      );
      await before.destroy();

      const t = await startTestApp({ DATABASE_URL: database.url });
      try {
        const retry = await apiClient(t.url, { authorization: `Bearer ${key}` })
          .post('/v1/pets')
          .set('idempotency-key', 'retry')
          .send({ name: 'Rex', categoryId: 1 });
        expect(retry.status).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.body).toEqual({
          id: Number(pet.id),
          name: 'Rex',
          categoryId: 1,
          status: 'available',
        });
      } finally {
        await t.close();
      }
    } finally {
      await database.drop();
    }
  });
});
