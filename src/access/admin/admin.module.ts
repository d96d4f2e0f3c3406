import { Module } from '@nestjs/common';
import { AccessModule } from '../access.module';
import { AdminController } from './admin.controller';
import { FirstRunKey } from './first-run-key';

@Module({
  imports: [AccessModule],
  controllers: [AdminController],
  providers: [FirstRunKey],
})
export class AdminModule {}
