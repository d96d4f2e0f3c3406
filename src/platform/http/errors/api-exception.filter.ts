import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorDocumentation } from './error-documentation';
import { sendErrorBody, toErrorResponse } from './error-mapping';

/**
 * The one place where errors become HTTP: every failure, from any layer, leaves as the
 * Error body (error-mapping.ts). Details of unexpected errors go to the log only.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly documentation: ErrorDocumentation) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const response = toErrorResponse(exception);
    if (response.unexpected) {
      this.logger.error(
        `${request.method} ${request.routeOptions?.url ?? 'unknown route'}: ${String(exception)}`,
        (exception as Error)?.stack,
      );
    } else if (response.status === 503) {
      this.logger.warn(`${request.method} ${request.routeOptions?.url}: ${String(exception)}`);
    }
    if (!reply.sent) sendErrorBody(reply, response, this.documentation);
  }
}
