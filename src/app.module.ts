import { DynamicModule, Module } from '@nestjs/common';
import { AccessModule } from './access/access.module';
import { AdminModule } from './access/admin/admin.module';
import { PetsModule } from './pets/pets.module';
import { AppConfig } from './platform/config/app-config';
import { ConfigModule } from './platform/config/config.module';
import { DatabaseModule } from './platform/database/database.module';
import { HttpModule } from './platform/http/http.module';
import { ObservabilityModule } from './platform/observability/observability.module';

/** The service: the platform, access control, and the features, with the configuration given. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        AccessModule,
        HttpModule,
        ObservabilityModule,
        AdminModule,
        PetsModule,
      ],
    };
  }
}
