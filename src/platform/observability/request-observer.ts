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
    fastify.addHook('onResponse', (request, reply, done) => {
      this.observe(request, reply);
      done();
    });
  }

  private observe(request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url;
    this.metrics.requests.observe(
      request.method,
      route,
      reply.statusCode,
      reply.elapsedTime / 1000,
      reply.hasHeader('x-ratelimit-limit'),
    );
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
}
