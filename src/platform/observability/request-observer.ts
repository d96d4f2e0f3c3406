import { Injectable, Logger } from '@nestjs/common';
import { getApiClient } from '@pet-adoption/api-keys';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counter, Histogram } from 'prom-client';
import { Metrics } from './metrics';

/** The metrics of one operation and status, resolved once instead of hashing labels per request. */
interface Series {
  requests: Counter.Internal;
  duration: Histogram.Internal<'operation' | 'status'>;
}

/**
 * One structured log line and the metrics of every answered request. It never logs the
 * Authorization header or the key: only the key's id.
 */
@Injectable()
export class RequestObserver {
  private readonly logger = new Logger('Http');
  private readonly series = new Map<string, Series>();

  constructor(private readonly metrics: Metrics) {}

  install(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      this.observe(request, reply);
      done();
    });
  }

  private observe(request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url;
    // The catch-all route answers unknown paths: its label must not multiply with every URL tried.
    const operation = route && !route.includes('*') ? `${request.method} ${route}` : 'unmatched';
    const series = this.seriesOf(operation, reply.statusCode);
    series.requests.inc();
    series.duration.observe(reply.elapsedTime / 1000);
    if (reply.getHeader('x-ratelimit-limit') !== undefined) {
      this.metrics.rateLimitDecisions.inc({
        decision: reply.statusCode === 429 ? 'refused' : 'admitted',
      });
    }
    if (!Logger.isLevelEnabled('log')) return;
    this.logger.log({
      msg: 'request',
      method: request.method,
      route: route ?? null,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      requestId: request.id,
      keyId: getApiClient(request)?.keyId ?? null,
    });
  }

  /** Operations are the routes (and `unmatched`), statuses a few dozen: the map stays small. */
  private seriesOf(operation: string, statusCode: number): Series {
    const id = `${operation} ${statusCode}`;
    let series = this.series.get(id);
    if (!series) {
      const labels = { operation, status: String(statusCode) };
      series = {
        requests: this.metrics.requests.labels(labels),
        duration: this.metrics.duration.labels(labels),
      };
      this.series.set(id, series);
    }
    return series;
  }
}
