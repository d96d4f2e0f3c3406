import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/**
 * How webhook endpoints' secrets are kept in the database: `encrypted` under WEBHOOK_SECRETS_KEY,
 * or `plaintext` without it; undefined on the embedded engine (no DATABASE_URL: one machine's own
 * files, a first run or a test), where nothing is said.
 */
export function webhookSecretsAtRest(config: AppConfig): 'encrypted' | 'plaintext' | undefined {
  if (config.database.url === undefined) return undefined;
  return config.webhooks.secretsKey ? 'encrypted' : 'plaintext';
}

/**
 * Says so at start, at error level, when a real database would keep webhook secrets in plain
 * text: the service still starts (an operator may not use webhooks at all), and /health/ready says
 * it too (`webhookSecrets`), so that a deployment check can refuse it.
 */
@Injectable()
export class SecretsAtRestNotice implements OnApplicationBootstrap {
  private readonly logger = new Logger('Secrets');

  constructor(private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    if (webhookSecretsAtRest(this.config) !== 'plaintext') return;
    this.logger.error(
      'WEBHOOK_SECRETS_KEY is unset: webhook endpoint secrets are stored in plain text in the database. ' +
        'Set it (32 random bytes in base64: openssl rand -base64 32) and restart; secrets issued or rotated from then on are encrypted (docs/operations.md, "Events and webhooks").',
    );
  }
}
