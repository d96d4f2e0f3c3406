import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { RequestObserver } from './request-observer';
import { SecretsAtRestNotice } from './secrets-at-rest';

/** What operators watch: the request log, metrics, liveness and readiness. */
@Module({
  controllers: [MetricsController, HealthController],
  providers: [Metrics, RequestObserver, SecretsAtRestNotice],
  // Metrics: features register their own in the one registry /metrics serves.
  exports: [RequestObserver, Metrics],
})
export class ObservabilityModule {}
