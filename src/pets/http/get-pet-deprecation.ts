import { CanActivate, Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { Clock } from '../../common/clock';
import { ApiError } from '../../platform/http/errors/api-error';
import { RouteHeaders } from '../../platform/http/response/route-headers';

/** GET /v1/pets/{petId} has been deprecated since 2026-11-21T00:00:00Z (RFC 9745 form). */
export const GET_PET_DEPRECATION = '@1795219200';

/**
 * Marks every response of the deprecated operation, whatever its status (the 401s and 429s of the
 * global guards included): `Deprecation`, `Sunset` (RFC 8594) and the successor's `Link`.
 */
@Injectable()
export class GetPetDeprecationHeaders implements OnModuleInit {
  constructor(
    private readonly config: AppConfig,
    private readonly routeHeaders: RouteHeaders,
  ) {}

  onModuleInit(): void {
    this.routeHeaders.add('GET', '/v1/pets/:petId', {
      deprecation: GET_PET_DEPRECATION,
      sunset: this.config.http.sunsets.getPet.toUTCString(),
      link: `<${this.config.http.publicBaseUrl}/pets>; rel="successor-version"`,
    });
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
    if (this.clock.now() < this.config.http.sunsets.getPet) return true;
    throw new ApiError(
      'gone',
      `GET /v1/pets/{petId} was removed on ${this.config.http.sunsets.getPet.toISOString()}; use GET /v1/pets with a status filter.`,
    );
  }
}
