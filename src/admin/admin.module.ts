import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { AdminController } from './admin.controller';
import { AdminTokenGuard } from './admin-token.guard';
import { FirstRunKey } from './first-run-key';

@Module({
  imports: [DatabaseModule],
  controllers: [AdminController],
  providers: [AdminTokenGuard, FirstRunKey],
})
export class AdminModule {}
