import { Test } from '@nestjs/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { configureApp, createFastifyAdapter } from '../../src/bootstrap';
import { AppConfig, loadConfig } from '../../src/config/app-config';

export interface TestApp {
  app: NestFastifyApplication;
  /** Base address of the listening server, without a trailing slash. */
  url: string;
  config: AppConfig;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * Boots the real application module on a free loopback port, against the real database of the
 * run (DATABASE_URL, set by the global setup when not given). `env` overrides environment
 * variables, read through the same validation as in production.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error', ...env });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(), {
    bodyParser: false,
  });
  await configureApp(app);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    config,
    dataSource: app.get(DataSource),
    close: () => app.close(),
  };
}

/** Empties the tables a test file relies on. */
export async function resetDatabase(dataSource: DataSource): Promise<void> {
  await dataSource.query('TRUNCATE pets RESTART IDENTITY');
}
