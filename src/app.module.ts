import { Module } from '@nestjs/common';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { HttpModule } from './http/http.module';
import { PetsModule } from './pets/pets.module';

@Module({
  imports: [ConfigModule, DatabaseModule, HttpModule, HealthModule, PetsModule],
})
export class AppModule {}
