import { Module } from '@nestjs/common';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { GetOwnKey } from './application/get-own-key.use-case';
import { IssueOrganizationKey } from './application/issue-organization-key.use-case';
import { ListOrganizationKeys } from './application/list-organization-keys.use-case';
import { KeyUsage, OrganizationKeys } from './application/organization-keys';
import { RevokeOrganizationKey } from './application/revoke-organization-key.use-case';
import { RollKey } from './application/roll-key.use-case';
import { KeysController } from './http/keys.controller';
import { LibraryOrganizationKeys } from './infrastructure/library-organization-keys';
import { RateLimiterKeyUsage } from './infrastructure/rate-limiter-key-usage';

/** Organisations run their own keys: issue, list, roll with an overlap, revoke; and any key its own. */
@Feature({
  tag: { name: 'keys', description: "An organisation's own API keys, and a key's own budget" },
  tables: { owns: [] },
})
@Module({
  imports: [HttpModule, IdempotencyModule],
  controllers: [KeysController],
  providers: [
    ListOrganizationKeys,
    IssueOrganizationKey,
    RollKey,
    RevokeOrganizationKey,
    GetOwnKey,
    { provide: OrganizationKeys, useClass: LibraryOrganizationKeys },
    { provide: KeyUsage, useClass: RateLimiterKeyUsage },
  ],
})
export class KeysModule {}
