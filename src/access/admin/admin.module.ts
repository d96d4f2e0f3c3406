import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../platform/idempotency/idempotency.module';
import { AccessModule } from '../access.module';
import { AdminController } from './admin.controller';
import { FirstRunKey } from './first-run-key';

@Module({
  imports: [AccessModule, IdempotencyModule],
  controllers: [AdminController],
  providers: [FirstRunKey],
})
export class AdminModule {}
