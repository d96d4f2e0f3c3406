import { Module } from '@nestjs/common';
import { AccessModule } from '../access.module';
import { AdminController } from './admin.controller';
import { AdminTokenGuard } from './admin-token.guard';
import { FirstRunKey } from './first-run-key';

@Module({
  imports: [AccessModule],
  controllers: [AdminController],
  providers: [AdminTokenGuard, FirstRunKey],
})
export class AdminModule {}
