import { CanActivate, Injectable, NestMiddleware } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { AppConfig } from '../../config/app-config';
import { Clock } from '../../common/clock';
import { ApiError } from '../../http/api-error';

/** GET /v1/pets/{petId} has been deprecated since 2026-11-21T00:00:00Z (RFC 9745 form). */
export const GET_PET_DEPRECATION = '@1795219200';

/**
 * Marks every response of the deprecated operation, whatever its status: it runs as middleware,
 * before guards and pipes, and writes to the raw response, which Fastify merges into any reply.
 */
@Injectable()
export class GetPetDeprecationHeaders implements NestMiddleware {
  private readonly headers: [string, string][];

  constructor(config: AppConfig) {
    this.headers = [
      ['Deprecation', GET_PET_DEPRECATION],
      ['Sunset', config.getPetSunset.toUTCString()],
      ['Link', `<${config.publicBaseUrl}/pets>; rel="successor-version"`],
    ];
  }

  use(_request: unknown, response: ServerResponse, next: () => void): void {
    for (const [name, value] of this.headers) response.setHeader(name, value);
    next();
  }
}

/** Answers 410 from the sunset instant on: after authentication and rate limiting, before the operation. */
@Injectable()
export class GetPetSunsetGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  canActivate(): boolean {
    if (this.clock.now() < this.config.getPetSunset) return true;
    throw new ApiError(
      410,
      'gone',
      `GET /v1/pets/{petId} was removed on ${this.config.getPetSunset.toISOString()}; use GET /v1/pets with a status filter.`,
    );
  }
}
