import { DynamicModule, Module } from '@nestjs/common';
import { Clock, SystemClock } from '../../common/clock';
import { AppConfig } from './app-config';

/** The configuration main loaded, and the clock, for every module. */
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      global: true,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [AppConfig, Clock],
    };
  }
}
