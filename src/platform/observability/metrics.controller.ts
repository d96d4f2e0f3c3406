import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { AllowAnonymous } from '@pet-adoption/api-keys';
import { RateLimitHealth } from '@pet-adoption/rate-limit';
import { DataSource } from 'typeorm';
import { Metrics } from './metrics';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Prometheus metrics, for the operator's scraper: outside /v1, no key, not rate limited. */
@ApiExcludeController()
@AllowAnonymous()
@SkipThrottle()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly dataSource: DataSource,
    private readonly rateLimit: RateLimitHealth,
  ) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    // Read at scrape time: nothing is done for it on the request path.
    const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
    if (pool) {
      this.metrics.poolConnections.set({ state: 'total' }, pool.totalCount);
      this.metrics.poolConnections.set({ state: 'idle' }, pool.idleCount);
      this.metrics.poolConnections.set({ state: 'waiting' }, pool.waitingCount);
    }
    // One ping per scrape: an outage shows even while no request reaches Redis.
    this.metrics.reportRedis(await this.rateLimit.status());
    return this.metrics.registry.metrics();
  }
}
