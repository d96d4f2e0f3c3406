import { Client } from 'pg';
import { FreshDatabase, freshDatabaseOn } from './support/fresh-database';
import { apiClient, expectError } from './support/http';
import { PgBouncer } from './support/peers/pgbouncer';
import { PostgresServer } from './support/peers/postgres-server';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { describeWithPeer } from './support/peers/optional-peers';

jest.setTimeout(90_000);

/** Short bounds, so that a stuck statement is given up on quickly. */
const timeouts = { DATABASE_STATEMENT_TIMEOUT_MS: '300', DATABASE_POOL_SIZE: '3' };

/**
 * docs/operations.md, "Behind PgBouncer": the service through a real PgBouncer in transaction
 * mode, configured as operators start from (no startup parameter ignored but extra_float_digits).
 */
describeWithPeer('pgbouncer', 'behind PgBouncer in transaction mode', () => {
  /** A server of this file's own when the run uses the embedded engine, which PgBouncer cannot front. */
  let server: PostgresServer | undefined;
  let pgbouncer: PgBouncer;
  let database: FreshDatabase;

  beforeAll(async () => {
    if (process.env.TEST_EMBEDDED_DATABASE) server = await PostgresServer.start();
    // When the whole run goes through a pooler, this file puts its own in front of the server.
    const serverUrl =
      server?.url ?? process.env.TEST_DIRECT_DATABASE_URL ?? process.env.DATABASE_URL!;
    pgbouncer = await PgBouncer.start(serverUrl);
    database = await freshDatabaseOn(serverUrl);
  });
  afterAll(async () => {
    await database?.drop();
    await pgbouncer?.stop();
    await server?.stop();
  });

  const pooled = (env: Record<string, string> = {}) =>
    startTestApp({
      DATABASE_URL: pgbouncer.urlFor(database.url),
      DATABASE_PREPARED_STATEMENTS: 'false',
      ...env,
    });

  it('refuses a client that sends statement_timeout as a startup parameter, as operators configure it', async () => {
    const client = new Client({
      connectionString: pgbouncer.urlFor(database.url),
      statement_timeout: 1000,
    });
    await expect(client.connect()).rejects.toThrow(
      'unsupported startup parameter: statement_timeout',
    );
    await client.end().catch(() => undefined);
  });

  it('three instances starting at once on a fresh database all come up, apply the schema once, and serve', async () => {
    const logBefore = pgbouncer.log().length;
    const instances = await Promise.all(
      Array.from({ length: 3 }, () => pooled({ DATABASE_POOL_SIZE: '2' })),
    );
    try {
      const applied = await instances[0].dataSource.query(
        'SELECT name, count(*)::int AS times FROM migrations GROUP BY name',
      );
      expect(applied).toHaveLength(instances[0].dataSource.migrations.length);
      expect(applied.every((row: { times: number }) => row.times === 1)).toBe(true);

      const created = [];
      for (const [i, instance] of instances.entries()) {
        const api = apiClient(instance.url, instance.auth);
        created.push(
          (
            await api
              .post('/v1/pets')
              .send({ name: `Pet ${i}`, categoryId: i + 1 })
              .expect(201)
          ).body,
        );
      }
      for (const instance of instances) {
        const api = apiClient(instance.url, instance.auth);
        expect((await api.get('/v1/pets').expect(200)).body).toEqual(created);
        expect((await api.get(`/v1/pets/${created[1].id}`).expect(200)).body).toEqual(created[1]);
        expect((await api.get('/v1/pets?status=available&limit=2').expect(200)).body).toEqual(
          created.slice(0, 2),
        );
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
    const log = pgbouncer.log().slice(logBefore);
    expect(log).toContain('login attempt');
    expect(log).not.toMatch(/unsupported startup parameter|pooler error/);
  });

  it('creates once per Idempotency-Key, retries on any instance replaying it, concurrent ones too', async () => {
    const logBefore = pgbouncer.log().length;
    const instances = await Promise.all([pooled(), pooled()]);
    try {
      await resetDatabase(instances[0].dataSource);
      // Idempotency keys belong to an API key: both instances are called with the same one.
      const [one, two] = instances.map((instance) => apiClient(instance.url, instances[0].auth));
      const create = (api: typeof one, key: string) =>
        api.post('/v1/pets').set('idempotency-key', key).send({ name: 'Rex', categoryId: 1 });

      const first = await create(one, 'adopt-1').expect(201);
      const retry = await create(two, 'adopt-1').expect(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers['idempotent-replayed']).toBe('true');

      const racing = await Promise.all(
        Array.from({ length: 10 }, (_, i) => create(i % 2 ? one : two, 'adopt-2')),
      );
      expect(racing.map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(new Set(racing.map((r) => r.body.id)).size).toBe(1);
      expect(racing.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);

      expect((await one.get('/v1/pets').expect(200)).body).toHaveLength(2);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
    expect(pgbouncer.log().slice(logBefore)).not.toMatch(
      /unsupported startup parameter|pooler error/,
    );
  });

  describe.each([
    ['directly', () => startTestApp({ DATABASE_URL: database.url, ...timeouts })],
    ['through PgBouncer', () => pooled(timeouts)],
  ])('a statement stuck behind a lock, %s', (_, start) => {
    let t: TestApp;
    let locker: Client;
    beforeAll(async () => {
      t = await start();
      locker = new Client({ connectionString: database.url });
      await locker.connect();
    });
    afterAll(async () => {
      await locker?.end();
      await t?.close();
    });
    beforeEach(() => resetDatabase(t.dataSource));

    /**
     * Backends of the test database still waiting on a lock in the request's own insert: a
     * statement the server still runs. Only the insert counts: the order sweeper touches `pets`
     * too, and a tick of it during the lock waits there for its own (bounded) turn.
     */
    const waiting = async () =>
      (
        await locker.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE '%INSERT INTO pets%'`,
        )
      ).rows[0].n as number;

    it('answers 503 in its transaction, cancelled by the server, and the retry creates once the lock is gone', async () => {
      const api = apiClient(t.url, t.auth);
      const adopt = () =>
        api.post('/v1/pets').set('idempotency-key', 'stuck-1').send({ name: 'Rex', categoryId: 1 });
      await locker.query('BEGIN');
      try {
        await locker.query('LOCK TABLE pets IN ACCESS EXCLUSIVE MODE');
        expectError(await adopt(), 503, 'service_unavailable');
        // The server cancelled the statement (SET LOCAL statement_timeout): nothing waits on.
        expect(await waiting()).toBe(0);
      } finally {
        await locker.query('ROLLBACK');
      }
      const retried = await adopt().expect(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect((await api.get('/v1/pets').expect(200)).body).toEqual([retried.body]);
    });

    it('answers 503 outside a transaction, bounded by the client, and serves again once the lock is gone', async () => {
      const api = apiClient(t.url, t.auth);
      await api.post('/v1/pets').send({ name: 'Tom', categoryId: 2 }).expect(201);
      await locker.query('BEGIN');
      try {
        await locker.query('LOCK TABLE pets IN ACCESS EXCLUSIVE MODE');
        expectError(await api.get('/v1/pets'), 503, 'service_unavailable');
        expectError(await api.get('/v1/pets'), 503, 'service_unavailable');
      } finally {
        await locker.query('ROLLBACK');
      }
      // Every connection serves again: more requests than the pool has connections.
      for (let i = 0; i < 12; i++) {
        expect((await api.get('/v1/pets').expect(200)).body).toHaveLength(1);
      }
    });
  });
});
