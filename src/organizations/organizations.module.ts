import { Module } from '@nestjs/common';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { CreateOrganization } from './application/create-organization.use-case';
import { GetOrganization } from './application/get-organization.use-case';
import { ListOrganizations } from './application/list-organizations.use-case';
import { OrganizationRepository } from './application/organization.repository';
import { UpdateOrganization } from './application/update-organization.use-case';
import { OrganizationsController } from './http/organizations.controller';
import { HouseOrganizationName } from './infrastructure/house-organization-name';
import { SqlOrganizationRepository } from './infrastructure/sql-organization.repository';

/** The shelters: who owns animals, and whose staff keys manage them (docs/adr/0040). */
@Feature({
  tag: {
    name: 'organizations',
    description: 'The shelters that own the animals, and where they are',
  },
  tables: { owns: ['organizations'], uses: ['api_keys'] },
})
@Module({
  imports: [HttpModule, IdempotencyModule],
  controllers: [OrganizationsController],
  providers: [
    ListOrganizations,
    GetOrganization,
    UpdateOrganization,
    CreateOrganization,
    HouseOrganizationName,
    { provide: OrganizationRepository, useClass: SqlOrganizationRepository },
  ],
  exports: [CreateOrganization, ListOrganizations],
})
export class OrganizationsModule {}
