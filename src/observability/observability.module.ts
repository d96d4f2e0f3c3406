import { Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { RequestObserver } from './request-observer';

@Module({
  controllers: [MetricsController],
  providers: [Metrics, RequestObserver],
  exports: [RequestObserver],
})
export class ObservabilityModule {}
