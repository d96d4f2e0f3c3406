import { AllowAnonymous } from '@pet-adoption/api-keys';
import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { pathProblemOf } from '../request/strict-path';
import { queryProblemOf } from '../request/strict-query';
import { RouteTable } from './route-table';
import { FALLBACK_ROUTE } from './unrouted-requests';

/**
 * Catches every request under /v1 that no operation serves, so that it passes through the
 * same guards as the operations (and gets the same headers) before it is refused:
 * 405 with `Allow` when the path exists with other methods, 404 otherwise; and requests whose
 * path or query string is not validly percent-encoded: 400.
 */
@ApiExcludeController()
@AllowAnonymous()
@Controller('v1')
export class FallbackController {
  constructor(private readonly routes: RouteTable) {}

  @All(FALLBACK_ROUTE.slice('/v1/'.length))
  refuse(@Req() request: FastifyRequest): never {
    // The URL as sent: unrouted requests reach this route rewritten (unrouted-requests.ts).
    const badPath = pathProblemOf(request.originalUrl);
    if (badPath !== null) {
      throw ApiError.invalid([{ field: 'path', issue: 'format', message: badPath }]);
    }
    const badQuery = queryProblemOf(request.originalUrl);
    if (badQuery !== null) {
      throw ApiError.invalid([{ field: 'query', issue: 'format', message: badQuery }]);
    }
    const path = request.originalUrl.split('?')[0];
    const allowed = this.routes.methodsFor(path);
    if (allowed.length > 0) {
      throw new ApiError(
        'method_not_allowed',
        `${request.method} is not supported on ${path}; use ${allowed.join(', ')}.`,
        { allow: allowed.join(', ') },
      );
    }
    throw new ApiError('not_found', `No route for ${request.method} ${path}.`);
  }
}
