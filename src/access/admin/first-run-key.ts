import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ApiKeys, KeyLimits } from '@pet-adoption/api-keys';
import { HOUSE_ORGANIZATION_ID } from '../../common/ownership';
import { SCOPES } from '../../common/scopes';
import { AppConfig } from '../../platform/config/app-config';
import { DatabaseEndpoint } from '../../platform/database/database-endpoint';

/** Enough that a newcomer's scripts never meet a 429. */
export const FIRST_RUN_LIMITS = { perMinute: 10_000, perDay: 1_000_000 };

const grouped = (n: number) => n.toLocaleString('en-US');

/**
 * First run on the embedded database: with no key at all, issue one and show it once, so that a
 * newcomer can call the API at once: an enterprise key of organisation 1 with every scope, to walk
 * a whole adoption and run scripts without meeting a limit. Never with DATABASE_URL set, never
 * twice. It is issued as the application starts and shown once the service listens, after the
 * start-up logs, where it cannot scroll away among them (main calls `announce`).
 */
@Injectable()
export class FirstRunKey implements OnApplicationBootstrap {
  private banner?: string;

  constructor(
    private readonly keys: ApiKeys,
    private readonly endpoint: DatabaseEndpoint,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.endpoint.isEmbedded || (await this.keys.count()) > 0) return;
    const { key, apiKey } = await this.keys.issue({
      name: 'first-run key',
      plan: 'enterprise',
      limits: FIRST_RUN_LIMITS,
      scopes: SCOPES,
      organizationId: String(HOUSE_ORGANIZATION_ID),
    });
    this.banner = this.bannerOf(key, apiKey.limits, apiKey.scopes);
  }

  /** Shows the key issued at this start, if one was, once: written to the terminal, never logged. */
  announce(): void {
    if (this.banner) process.stdout.write(this.banner);
    this.banner = undefined;
  }

  private bannerOf(key: string, limits: KeyLimits, scopes: readonly string[]): string {
    const rule = '='.repeat(78);
    return [
      '',
      rule,
      ' First run: an API key was issued. It is shown this once only; keep it:',
      '',
      `   ${key}`,
      '',
      ` Plan:         enterprise, ${grouped(limits.perMinute)} requests a minute and ${grouped(limits.perDay)} a day`,
      ` Organisation: ${HOUSE_ORGANIZATION_ID} (${this.config.organizations.defaultName})`,
      ` Scopes:       ${scopes.join(' ')}`,
      '',
      ' Try it:',
      `   curl -H "Authorization: Bearer ${key}" ${this.config.http.publicBaseUrl}/pets`,
      '',
      ` More keys, while the service runs: npm run apikey -- issue --name <name> --plan free`,
      rule,
      '',
      '',
    ].join('\n');
  }
}
