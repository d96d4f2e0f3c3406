import { DynamicModule, Module } from '@nestjs/common';
import { AccessModule } from './access/access.module';
import { migrations } from './migrations';
import { AdminModule } from './access/admin/admin.module';
import { CategoriesModule } from './categories/categories.module';
import { PetsModule } from './pets/pets.module';
import { OrdersModule } from './orders/orders.module';
import { EventFeedModule } from './event-feed/event-feed.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ImportsModule } from './imports/imports.module';
import { PhotosModule } from './photos/photos.module';
import { AppConfig } from './platform/config/app-config';
import { ConfigModule } from './platform/config/config.module';
import { DatabaseModule } from './platform/database/database.module';
import { HttpModule } from './platform/http/http.module';
import { featuresAmong } from './platform/features/feature';
import { ObservabilityModule } from './platform/observability/observability.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { KeysModule } from './keys/keys.module';
import { OrganizationsAdminModule } from './organizations/organizations-admin.module';
import { ApplicationsModule } from './applications/applications.module';

/**
 * The features, each a module marked @Feature (docs/adr/0026): adding one is adding it here. Its
 * migrations, tables and OpenAPI tag are found from the feature itself (docs/extending.md).
 */
const FEATURES = [
  PetsModule,
  OrdersModule,
  CategoriesModule,
  EventFeedModule,
  WebhooksModule,
  OrganizationsModule,
  KeysModule,
  PhotosModule,
  ImportsModule,
  ApplicationsModule,
];

/** The modules the public OpenAPI document describes: the features under /v1. */
export const PUBLIC_API_MODULES = featuresAmong(FEATURES);
/** The modules the admin API's document describes. */
export const ADMIN_API_MODULES = [AdminModule, OrganizationsAdminModule];

/** The service: the platform, access control, and the features, with the configuration given. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(migrations),
        AccessModule,
        HttpModule,
        ObservabilityModule,
        ...ADMIN_API_MODULES,
        ...FEATURES,
      ],
    };
  }
}
