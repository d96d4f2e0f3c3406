import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AppModule } from './app.module';
import { createApp } from './bootstrap';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    // Validated here first so that a bad variable stops start-up with one clear line.
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const app = await createApp(AppModule, config);
  await app.listen(config.port, config.host);
  new Logger('Main').log(
    `Serving the API at ${config.publicBaseUrl} (docs: ${config.publicBaseUrl}/docs)`,
  );
}

void main();
