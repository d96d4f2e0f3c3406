import { Module } from '@nestjs/common';
import { AdminOrganizationsController } from './http/admin-organizations.controller';
import { OrganizationsModule } from './organizations.module';

/** The admin API's part for organisations: described in the admin document, not the public one. */
@Module({
  imports: [OrganizationsModule],
  controllers: [AdminOrganizationsController],
})
export class OrganizationsAdminModule {}
