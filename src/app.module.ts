import { Module } from '@nestjs/common';
import { AccessControlModule } from './access-control/access-control.module';
import { AdminModule } from './admin/admin.module';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { HttpModule } from './http/http.module';
import { ObservabilityModule } from './observability/observability.module';
import { PetsModule } from './pets/pets.module';

@Module({
  imports: [
    ConfigModule,
    DatabaseModule,
    AccessControlModule,
    HttpModule,
    HealthModule,
    ObservabilityModule,
    AdminModule,
    PetsModule,
  ],
})
export class AppModule {}
