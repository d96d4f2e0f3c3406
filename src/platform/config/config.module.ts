import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from '../../common/clock';
import { AppConfig, loadConfig } from './app-config';

@Global()
@Module({
  providers: [
    { provide: AppConfig, useFactory: () => loadConfig() },
    { provide: Clock, useClass: SystemClock },
  ],
  exports: [AppConfig, Clock],
})
export class ConfigModule {}
