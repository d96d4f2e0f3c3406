import { Injectable, Logger } from '@nestjs/common';
import { getApiClient } from '@pet-adoption/api-keys';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Metrics } from './metrics';

/**
 * One structured log line and the metrics of every answered request. It never logs the
 * Authorization header or the key: only the key's id.
 */
@Injectable()
export class RequestObserver {
  private readonly logger = new Logger('Http');

  constructor(private readonly metrics: Metrics) {}

  install(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', async (request, reply) => this.observe(request, reply));
  }

  private observe(request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url;
    // The catch-all route answers unknown paths: its label must not multiply with every URL tried.
    const operation = route && !route.includes('*') ? `${request.method} ${route}` : 'unmatched';
    const status = String(reply.statusCode);
    const seconds = reply.elapsedTime / 1000;
    this.metrics.requests.inc({ operation, status });
    this.metrics.duration.observe({ operation, status }, seconds);
    if (reply.getHeader('x-ratelimit-limit') !== undefined) {
      this.metrics.rateLimitDecisions.inc({
        decision: reply.statusCode === 429 ? 'refused' : 'admitted',
      });
    }
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
}
