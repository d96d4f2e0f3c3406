import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeys, IssueApiKey } from '@pet-adoption/api-keys';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { configureApp, createFastifyAdapter } from '../../src/bootstrap';
import { AppConfig, loadConfig } from '../../src/platform/config/app-config';
import { redisKeyPrefix } from './confinement';
import { openApps, startingApp } from './open-apps';
import { portToListenOn } from './peers/processes';
import { redisEnv } from './run-redis';
import { DEFAULT_SCOPES } from '../../src/common/scopes';

export interface TestApp {
  app: NestFastifyApplication;
  /** Base address of the listening server, without a trailing slash. */
  url: string;
  config: AppConfig;
  dataSource: DataSource;
  /**
   * Headers with a key of limits so high that tests which are not about limits never meet them:
   * a key of organisation 1's staff (the house, which owns the pets a key without an organisation
   * creates) with the default scopes and `pets:manage`, so that it corrects and removes the pets
   * it adds, as the store's own staff do.
   */
  auth: Record<string, string>;
  /** Issues a key through the service itself, as the admin API does. */
  issueKey(
    request?: Partial<IssueApiKey>,
  ): Promise<{ id: string; key: string; auth: Record<string, string> }>;
  close(): Promise<void>;
}

let instances = 0;

/**
 * Boots the real application module on a free loopback port, against the real database of the
 * run (DATABASE_URL, set by the global setup when not given) and the run's Redis (REDIS_URL, or
 * its Cluster with TEST_REDIS=cluster) unless `env` names another.
 * `env` overrides environment variables, read through the same validation as in production.
 * Every instance counts rate limits under its own Redis prefix unless `env` shares one.
 * `override` may replace providers (a port's fake, such as a host resolver).
 */
export function startTestApp(
  env: Record<string, string> = {},
  override: (builder: TestingModuleBuilder) => TestingModuleBuilder = (builder) => builder,
): Promise<TestApp> {
  return startingApp(bootTestApp(env, override));
}

async function bootTestApp(
  env: Record<string, string>,
  override: (builder: TestingModuleBuilder) => TestingModuleBuilder,
): Promise<TestApp> {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'error',
    // Two workers share two cores with PostgreSQL: a new connection can take longer than the
    // production default of 1 s. Specs about outages set their own.
    DATABASE_CONNECT_TIMEOUT_MS: '5000',
    API_KEY_PREFIX: 'pet_test_',
    REDIS_KEY_PREFIX: `${redisKeyPrefix()}${process.pid}:${Date.now()}:${instances++}:`,
    ...env,
    ...redisEnv(env),
  });
  const moduleRef = await override(
    Test.createTestingModule({ imports: [AppModule.forRoot(config)] }),
  ).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createFastifyAdapter(config),
    // Start-up logs wait for the app's own logger (configureApp), as in production.
    { bodyParser: false, bufferLogs: true },
  );
  // Once, however often it is asked for: by the spec and by the file's clean-up.
  let closing: Promise<void> | undefined;
  const close = () => {
    openApps.delete(close);
    return (closing ??= app.close());
  };
  openApps.add(close);
  await configureApp(app);
  await app.listen(await portToListenOn(), '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };

  const keys = app.get(ApiKeys);
  const issueKey = async (request: Partial<IssueApiKey> = {}) => {
    const { apiKey, key } = await keys.issue({
      name: 'e2e',
      plan: 'enterprise',
      limits: { perMinute: 1_000_000, perDay: 100_000_000 },
      ...request,
    });
    return { id: apiKey.id, key, auth: { authorization: `Bearer ${key}` } };
  };
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    config,
    dataSource: app.get(DataSource),
    auth: (await issueKey({ organizationId: '1', scopes: [...DEFAULT_SCOPES, 'pets:manage'] }))
      .auth,
    issueKey,
    close,
  };
}

/**
 * The tables a reset keeps: the applied migrations, the keys a spec issued once for all its tests
 * and the organisations they belong to (organisation 1 among them, which the migrations create),
 * and the pet counts, which pets' own TRUNCATE trigger keeps right (CountPetsByStatus1795220000000).
 */
const KEPT_TABLES = ['migrations', 'api_keys', 'organizations', 'pet_status_counts'];

/** The tables the background jobs lock, in their order (docs/adr/0046). */
const LOCKED_FIRST = [
  'webhook_fan_out',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'events',
];

/**
 * Empties every other table of the database, found in the catalogue rather than listed, so that
 * a feature's new table (one referencing pets included) is reset with no edit here.
 *
 * Only the tables written since the last reset (a page, statistics or a sequence's value), with
 * every table that references one of them (TRUNCATE takes those together): the rest is as a
 * TRUNCATE would leave it already. Each table TRUNCATE takes costs a few milliseconds (new files
 * for it and its indexes): all fourteen took 75-110 ms a reset, hundreds of times a run.
 */
export async function resetDatabase(dataSource: DataSource): Promise<void> {
  // TRUNCATE locks its tables one by one, in the order given: first those the background jobs
  // lock, in the order they lock them (the fan-out's progress row first; then endpoints,
  // deliveries, attempts, events, as the worker's claim and completion do), so that a job and
  // the reset wait for each other instead of deadlocking.
  const tables: { name: string }[] = await dataSource.query(
    `WITH RECURSIVE written AS (
       SELECT c.oid FROM pg_class c
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
          AND NOT (c.relname = ANY($1))
          -- A partitioned table has no pages of its own: taken whole, with its partitions.
          AND (c.relkind = 'p' OR pg_relation_size(c.oid) > 0 OR c.reltuples >= 0 OR EXISTS (
                SELECT FROM pg_depend d JOIN pg_class s ON s.oid = d.objid
                 WHERE d.classid = 'pg_class'::regclass AND d.refobjid = c.oid
                   -- Asked of sequences alone, whatever order the planner takes the conditions in.
                   AND pg_sequence_last_value(CASE WHEN s.relkind = 'S' THEN s.oid END) IS NOT NULL))
       UNION
       SELECT f.conrelid FROM pg_constraint f JOIN written w ON f.confrelid = w.oid
        WHERE f.contype = 'f'
     )
     SELECT quote_ident(c.relname) AS name FROM written JOIN pg_class c USING (oid)
      ORDER BY array_position($2::text[], c.relname::text), c.relname`,
    [KEPT_TABLES, LOCKED_FIRST],
  );
  if (tables.length === 0) return;
  const truncate = `TRUNCATE ${tables.map(({ name }) => name).join(', ')} RESTART IDENTITY`;
  // The instance's background work (the webhook worker) may hold some of the tables while the
  // TRUNCATE locks them one by one; PostgreSQL then ends one of the two: if it is this, again.
  for (let attempt = 1; ; attempt++) {
    try {
      return void (await dataSource.query(truncate));
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt === 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}
