import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const REDIS_UP = 'rate_limit_redis_up';

/** The service's Prometheus metrics, in a registry of its own (one per application instance). */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by operation and status',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });

  readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by operation and status',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly rateLimitDecisions = new Counter({
    name: 'rate_limit_decisions_total',
    help: 'Rate-limit decisions: admitted, or refused with 429',
    labelNames: ['decision'] as const,
    registers: [this.registry],
  });

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
