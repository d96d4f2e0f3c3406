import { Module } from '@nestjs/common';
import { AccessModule } from './access/access.module';
import { AdminModule } from './access/admin/admin.module';
import { ConfigModule } from './platform/config/config.module';
import { DatabaseModule } from './platform/database/database.module';
import { HttpModule } from './platform/http/http.module';
import { ObservabilityModule } from './platform/observability/observability.module';
import { PetsModule } from './pets/pets.module';

@Module({
  imports: [
    ConfigModule,
    DatabaseModule,
    AccessModule,
    HttpModule,
    ObservabilityModule,
    AdminModule,
    PetsModule,
  ],
})
export class AppModule {}
