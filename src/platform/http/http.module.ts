import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { ErrorDocumentation } from './errors/error-documentation';
import { ApiIndexController } from './api-index/api-index.controller';
import { FallbackController } from './routing/fallback.controller';
import { RequestValidationPipe } from './request/request-validation';
import { BodyAfterGateInterceptor } from './request/body-after-gate.interceptor';
import { ImageBodyBudget } from './request/image-body-budget';
import { ImageSpool } from './request/image-spool';
import { RouteFactHeaders } from './route-facts/route-fact-headers';
import { RouteTable } from './routing/route-table';

/**
 * The HTTP edge shared by every feature: error rendering, bodies read only once a request is let
 * through, body and input validation, conditional reads, unknown routes, and the index at `/` and
 * `/v1`.
 */
@Module({
  controllers: [ApiIndexController, FallbackController],
  providers: [
    RouteTable,
    RouteFactHeaders,
    {
      provide: ErrorDocumentation,
      useFactory: (config: AppConfig) => new ErrorDocumentation(config.http.publicBaseUrl),
      inject: [AppConfig],
    },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useClass: RequestValidationPipe },
    {
      provide: ImageBodyBudget,
      useFactory: (config: AppConfig) => new ImageBodyBudget(config.photos.bodyMemoryBytes),
      inject: [AppConfig],
    },
    ImageSpool,
    { provide: APP_INTERCEPTOR, useClass: BodyAfterGateInterceptor },
  ],
  exports: [RouteTable, RouteFactHeaders, ErrorDocumentation],
})
export class HttpModule {}
