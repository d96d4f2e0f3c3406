import { Injectable } from '@nestjs/common';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { RequestMetrics } from './request-metrics';

const REDIS_UP = 'rate_limit_redis_up';

/** The service's Prometheus metrics, in a registry of its own (one per application instance). */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  /** Requests by operation and status, their durations, and the rate limiter's decisions. */
  readonly requests = new RequestMetrics(this.registry);

  readonly poolConnections = new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections, by state (total, idle, waiting clients)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  /** Registered by the first report: without Redis the limiter has no such health to report. */
  private readonly redisUp = new Gauge({
    name: REDIS_UP,
    help: "Whether the rate limiter's Redis answered a ping at scrape time (1) or not (0)",
    registers: [],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The rate limiter's store as last checked: a Redis up or down, or counters in the process. */
  reportRedis(status: 'memory' | 'up' | 'down'): void {
    if (status === 'memory') return;
    if (!this.registry.getSingleMetric(REDIS_UP)) this.registry.registerMetric(this.redisUp);
    this.redisUp.set(status === 'up' ? 1 : 0);
  }
}
