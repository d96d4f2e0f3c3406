import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ApiKeys } from '@pet-adoption/api-keys';
import { AppConfig } from '../../platform/config/app-config';
import { DatabaseEndpoint } from '../../platform/database/database-endpoint';
import { SCOPES } from '../../common/scopes';

/**
 * First run on the embedded database: with no key at all, issue one free key and print it once,
 * so that a newcomer can call the API at once; with every scope, to walk a whole adoption. Never with DATABASE_URL set, never twice.
 */
@Injectable()
export class FirstRunKey implements OnApplicationBootstrap {
  constructor(
    private readonly keys: ApiKeys,
    private readonly endpoint: DatabaseEndpoint,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.endpoint.isEmbedded || (await this.keys.count()) > 0) return;
    const { key } = await this.keys.issue({
      name: 'first-run key',
      plan: 'free',
      scopes: SCOPES,
    });
    // Written to the terminal once, deliberately, and never through the logger.
    process.stdout.write(
      [
        '',
        'First run: issued a free-plan API key. It is shown this once only; keep it:',
        '',
        `  ${key}`,
        '',
        'Try it:',
        `  curl -H "Authorization: Bearer ${key}" ${this.config.http.publicBaseUrl}/pets`,
        '',
        '',
      ].join('\n'),
    );
  }
}
