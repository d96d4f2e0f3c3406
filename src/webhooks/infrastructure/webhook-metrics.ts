import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { Metrics } from '../../platform/observability/metrics';

/** The deliveries' metrics, in the service's one registry (served at /metrics). */
@Injectable()
export class WebhookMetrics {
  readonly deliveries: Counter<'outcome'>;
  readonly attemptDuration: Histogram;

  constructor(metrics: Metrics, dataSource: DataSource) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome: succeeded, failed, or dropped (its key could no longer read the event)',
      labelNames: ['outcome'] as const,
      registers,
    });
    // Every outcome has a series from the start, so that a dashboard's rate reads 0, not nothing.
    for (const outcome of ['succeeded', 'failed', 'dropped']) this.deliveries.inc({ outcome }, 0);
    this.attemptDuration = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Time of one webhook delivery attempt, from resolving the name to the answer',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers,
    });
    new Gauge({
      name: 'webhook_oldest_pending_delivery_age_seconds',
      help: 'Age of the oldest delivery not yet succeeded nor given up (0 when none): the backlog',
      registers,
      // Read at each scrape, from PostgreSQL, where the deliveries are: the same on every instance.
      async collect() {
        const [row] = (await dataSource.query(
          `SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
             FROM (SELECT created_at FROM webhook_deliveries WHERE state = 'pending'
                    ORDER BY id LIMIT 1) oldest`,
        )) as { age: number }[];
        this.set(row.age);
      },
    });
  }
}
