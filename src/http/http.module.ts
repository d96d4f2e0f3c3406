import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ApiExceptionFilter } from './api-exception.filter';
import { FallbackController } from './fallback.controller';
import { createValidationPipe, JsonObjectBodyPipe, QueryKeysPipe } from './request-validation';
import { RouteHeaders } from './route-headers';
import { RouteTable } from './route-table';

/** The HTTP edge shared by every feature: error rendering, body and input validation, unknown routes. */
@Module({
  controllers: [FallbackController],
  providers: [
    RouteTable,
    RouteHeaders,
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useClass: JsonObjectBodyPipe },
    { provide: APP_PIPE, useClass: QueryKeysPipe },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
  exports: [RouteTable, RouteHeaders],
})
export class HttpModule {}
