import { applyDecorators, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AllowAnonymous } from '@pet-adoption/api-keys';
import { ApiErrorResponses } from '../errors/api-error-responses.decorator';
import { AdminTokenGuard } from './admin-token.guard';

/**
 * A controller of the admin API: outside /v1, behind ADMIN_TOKEN instead of an API key, not
 * counted by the rate limiter (the token guard counts failed attempts itself), described in the
 * admin document. Whichever feature administers something declares its controller with it.
 */
export const AdminApi = () =>
  applyDecorators(
    ApiTags('admin'),
    ApiBearerAuth('admin'),
    ApiErrorResponses(
      'unauthorized',
      'not_found',
      'rate_limited',
      'internal_error',
      'service_unavailable',
    ),
    AllowAnonymous(),
    SkipThrottle(),
    UseGuards(AdminTokenGuard),
  );
