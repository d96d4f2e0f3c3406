import { SkipThrottle } from '@nestjs/throttler';
import { AllowAnonymous } from '@pet-adoption/api-keys';
import { RateLimitHealth } from '@pet-adoption/rate-limit';
import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { webhookSecretsAtRest } from './secrets-at-rest';

type Check = 'up' | 'down' | 'memory';

/** Liveness and readiness for orchestrators: outside /v1, no key, not rate limited. */
@ApiExcludeController()
@AllowAnonymous()
@SkipThrottle()
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rateLimit: RateLimitHealth,
    private readonly config: AppConfig,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Ready when the database answers. Redis, when configured, is reported; while it is down the
   * service is still ready if it fails open (it keeps serving), and not ready if it fails closed.
   * With DATABASE_URL, `webhookSecrets` says whether webhook secrets are `encrypted` at rest or
   * kept in `plaintext` (WEBHOOK_SECRETS_KEY unset).
   */
  @Get('ready')
  async ready(): Promise<{
    status: 'ok';
    checks: Record<string, Check>;
    webhookSecrets?: 'encrypted' | 'plaintext';
  }> {
    const [database, redis] = await Promise.all([
      this.dataSource.query('SELECT 1').then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      this.rateLimit.status(),
    ]);
    const checks = { database, redis };
    if (database === 'down' || (redis === 'down' && this.config.rateLimit.failClosed)) {
      throw new ServiceUnavailableException({
        code: 'service_unavailable',
        message: `Not ready: ${Object.entries(checks)
          .filter(([, state]) => state === 'down')
          .map(([name]) => name)
          .join(' and ')} unreachable.`,
      });
    }
    // How webhook secrets are kept (secrets-at-rest.ts): `plaintext` is a deployment to fix.
    const webhookSecrets = webhookSecretsAtRest(this.config);
    return { status: 'ok', checks, ...(webhookSecrets ? { webhookSecrets } : {}) };
  }
}
