import { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from './config/app-config';
import { BODY_HARD_LIMIT_BYTES, installJsonBodyParser } from './http/json-body';
import { RouteTable } from './http/route-table';
import { createOpenApiDocument } from './openapi/openapi-document';

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_HARD_LIMIT_BYTES,
    // The server sits behind nothing by default: the socket's address is the client's.
    trustProxy: false,
    return503OnClosing: true,
  });
}

/**
 * Everything between "the module graph exists" and "the app can listen": body parsing, the
 * routing table behind 405s, the OpenAPI document and docs page. Shared by main and the tests.
 */
export async function configureApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  const config = app.get(AppConfig);
  app.useLogger(LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(config.logLevel) + 1));
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  installJsonBodyParser(fastify);
  const routes = app.get(RouteTable);
  fastify.addHook('onRoute', (route) => {
    if (!route.url.includes('*')) routes.add(route.method, route.url);
  });

  await app.init();

  const document = createOpenApiDocument(app, config);
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    yamlDocumentUrl: 'v1/openapi.yaml',
    customSiteTitle: 'Pet Adoption Service API',
  });
  return app;
}

export async function createApp(module: unknown): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    module as never,
    createFastifyAdapter(),
    {
      bufferLogs: true,
      // The JSON parser is ours (installJsonBodyParser): Nest must not register its own.
      bodyParser: false,
    },
  );
  return configureApp(app);
}

export type { INestApplication };
