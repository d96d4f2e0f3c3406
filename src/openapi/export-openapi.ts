import { readFileSync, writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule, PUBLIC_API_MODULES } from '../app.module';
import { createFastifyAdapter } from '../bootstrap';
import { loadConfig } from '../platform/config/app-config';
import { createOpenApiDocument } from './openapi-document';

/**
 * Writes the OpenAPI document that the code generates, with the default configuration, or with
 * `--check` fails when the committed copy differs from it. Runs without a database: the module
 * graph is built in preview mode, where no provider is instantiated.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const file = process.argv.filter((arg) => !arg.startsWith('--')).slice(2)[0] ?? 'openapi.json';
  const config = loadConfig({});
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config),
    createFastifyAdapter(config),
    {
      preview: true,
      logger: false,
      abortOnError: false,
    },
  );
  const document = createOpenApiDocument(app, config, PUBLIC_API_MODULES);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  await app.close();
  if (!check) {
    writeFileSync(file, text);
    return;
  }
  if (readFileSync(file, 'utf8') !== text) {
    console.error(
      `${file} differs from the document the code generates: run npm run openapi and commit it.`,
    );
    process.exit(1);
  }
  console.log(`${file} matches the code.`);
}

void main();
