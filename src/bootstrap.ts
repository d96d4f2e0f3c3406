import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_API_MODULES, AppModule, PUBLIC_API_MODULES } from './app.module';
import { AppConfig } from './platform/config/app-config';
import { BODY_HARD_LIMIT_BYTES, installJsonBodyParser } from './platform/http/request/json-body';
import { parseQueryStrictly } from './platform/http/request/strict-query';
import {
  clientErrorAnswerer,
  REQUEST_DEADLINE_MS,
  REQUEST_DEADLINE_SERVER_OPTIONS,
} from './platform/http/request/request-deadline';
import { installResponseHeaders, requestId } from './platform/http/response/response-headers';
import { installDeferredCounts } from './platform/http/conditional-read/conditional-read.interceptor';
import { RouteFactHeaders } from './platform/http/route-facts/route-fact-headers';
import { routeFactsOfRequest } from './platform/http/route-facts/route-facts';
import { PlanThrottlerGuard } from '@pet-adoption/rate-limit';
import { BackgroundPacing } from './platform/background/background-pacing';
import { countDocumentationRequests } from './platform/http/routing/documentation-requests';
import { RouteTable } from './platform/http/routing/route-table';
import {
  FALLBACK_ROUTE,
  routeUnroutedToFallback,
  useRouteTable,
} from './platform/http/routing/unrouted-requests';
import { RequestObserver } from './platform/observability/request-observer';
import { sendErrorBody, toErrorResponse } from './platform/http/errors/error-mapping';
import {
  ERROR_PAGE_PATH,
  ErrorDocumentation,
  serveErrorPage,
} from './platform/http/errors/error-documentation';
import { createAdminOpenApiDocument, createOpenApiDocument } from './openapi/openapi-document';

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/**
 * Which X-Forwarded-For hops to believe. Off by default: the socket's address is the client's.
 * A hop count believes that many hops nearest the service, whoever connects (Fastify itself now
 * refuses to believe any hop for a count): right only when the service is reachable solely
 * through its proxies. Addresses or CIDRs believe only those peers.
 */
function trustedProxies(
  trust: AppConfig['http']['trustProxy'],
): false | string | ((_: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  const documentation = new ErrorDocumentation(config.http.publicBaseUrl);
  return new FastifyAdapter({
    bodyLimit: BODY_HARD_LIMIT_BYTES,
    trustProxy: trustedProxies(config.http.trustProxy),
    return503OnClosing: true,
    genReqId: requestId,
    routerOptions: {
      // As node:querystring: objects without a prototype, so that `__proto__` stays a plain (and
      // refused) parameter; repeated parameters become arrays, refused by validation. Strict:
      // invalid percent-encoding is refused, not read as U+FFFD (strict-query.ts).
      querystringParser: parseQueryStrictly,
      // No route parameter of this API is longer; longer ones are refused before any handler.
      maxParamLength: 100,
    },
    // Every request under /v1 goes through a route of the application, counted (docs/adr/0025).
    rewriteUrl: routeUnroutedToFallback,
    // Errors Fastify's router raises before any route (a badly encoded URL) get the Error body too.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
      sendErrorBody(reply, toErrorResponse(error), documentation),
    // Slow clients cannot hold a connection: the whole request must arrive within 10 s (answered
    // 408 and closed otherwise, docs/adr/0025), and an idle keep-alive connection is closed after 5 s.
    http: REQUEST_DEADLINE_SERVER_OPTIONS,
    requestTimeout: REQUEST_DEADLINE_MS,
    clientErrorHandler: clientErrorAnswerer(documentation),
    keepAliveTimeout: 5_000,
  });
}

/**
 * Everything between "the module graph exists" and "the app can listen": body parsing, the
 * routing table behind 405s, the OpenAPI document and docs page. Shared by main and the tests.
 */
export async function configureApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  const config = app.get(AppConfig);
  app.useLogger(
    new ConsoleLogger({
      logLevels: LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(config.observability.logLevel) + 1),
      json: config.observability.logFormat === 'json',
    }),
  );

  const fastify = app.getHttpAdapter().getInstance();
  installJsonBodyParser(fastify);
  installResponseHeaders(fastify, app.get(RouteFactHeaders));
  installDeferredCounts(fastify);
  app.get(RequestObserver).install(fastify);
  app.get(BackgroundPacing).install(fastify);
  const routes = app.get(RouteTable);
  useRouteTable(fastify, routes);
  fastify.addHook('onRoute', (route) => {
    if (route.url !== FALLBACK_ROUTE) {
      routes.add(route.method, route.url, routeFactsOfRequest({ routeOptions: route }));
    }
  });

  if (config.http.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.http.corsOrigins,
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Idempotency-Key',
        'If-Match',
        'If-None-Match',
        'X-Request-Id',
      ],
      exposedHeaders: [
        'Location',
        'Link',
        'Retry-After',
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'RateLimit-Policy',
        'RateLimit',
        'Deprecation',
        'Sunset',
        'Idempotent-Replayed',
        'ETag',
      ],
    });
  }

  await app.init();

  const documentation = app.get(ErrorDocumentation);
  countDocumentationRequests(
    fastify,
    app.get(PlanThrottlerGuard),
    ['/v1/docs', '/v1/openapi'],
    documentation,
  );
  serveErrorPage(fastify, `/v1${ERROR_PAGE_PATH}`);
  // The documents are built when first asked for, not at start-up: building the public one is
  // the largest part of a start after loading the code (docs/performance.md, "Start-up").
  SwaggerModule.setup(
    'v1/docs',
    app,
    () => createOpenApiDocument(app, config, PUBLIC_API_MODULES),
    {
      jsonDocumentUrl: 'v1/openapi.json',
      yamlDocumentUrl: 'v1/openapi.yaml',
      customSiteTitle: 'Pet Adoption Service API',
    },
  );
  if (config.apiKeys.adminToken) {
    SwaggerModule.setup(
      'admin/docs',
      app,
      () => createAdminOpenApiDocument(app, config, ADMIN_API_MODULES),
      {
        jsonDocumentUrl: 'admin/openapi.json',
        customSiteTitle: 'Pet Adoption Service admin API',
      },
    );
  }
  return app;
}

export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config),
    createFastifyAdapter(config),
    {
      bufferLogs: true,
      // The JSON parser is ours (installJsonBodyParser): Nest must not register its own.
      bodyParser: false,
    },
  );
  return configureApp(app);
}
