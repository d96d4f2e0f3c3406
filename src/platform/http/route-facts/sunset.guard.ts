import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../config/app-config';
import { ApiError } from '../errors/api-error';
import { documentedPath, routeFactsOfRequest } from './route-facts';

/**
 * A deprecated operation answers 410 from its sunset instant on: after the rate limit and the key
 * checks (global guards run first), before the operation.
 */
@Injectable()
export class SunsetGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // The facts the matched route carries in its Fastify config: no metadata look-up per request.
    const deprecation = routeFactsOfRequest(request)?.deprecation;
    if (!deprecation) return true;
    const sunset = this.config.http.sunsets[deprecation.sunset];
    if (this.clock.now() < sunset) return true;
    const route = `${request.method} ${documentedPath(request.routeOptions.url ?? request.url)}`;
    throw new ApiError(
      'gone',
      `${route} was removed on ${sunset.toISOString()}; ${deprecation.instead}`,
    );
  }
}
