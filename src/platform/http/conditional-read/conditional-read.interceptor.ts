import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import { strongEntityTag } from '../request/entity-tags';
import { namesEntityTag } from '../request/if-none-match';
import { routeFactsOfRequest } from '../route-facts/route-facts';
import { takeDeferredCount } from './deferred-count';
import { opaqueOf, representationTag } from './representation-tag';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers the reads stated `@ConditionalRead()`: sets the ETag of every 200 (the handler's own,
 * a version, when it set one, so that If-Match and If-None-Match agree; else a hash of the JSON
 * and Link sent), answers 304 without a body when If-None-Match names it, and settles the count
 * the access guard deferred: none for a 304 (only the budget's headers, from a peek), the count
 * for any other answer, which may then be refused with 429 although its work is done
 * (docs/adr/0051).
 */
@Injectable()
export class ConditionalReadInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (routeFactsOfRequest(request)?.conditionalRead !== true) return next.handle();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      mergeMap((body) => from(this.answer(request, reply, body))),
      // An error answer (400, 404, a 429 of the count itself) is counted too: settled once.
      catchError((error: unknown) =>
        from(takeDeferredCount(request)?.count() ?? Promise.resolve()).pipe(
          mergeMap(() => throwError(() => error)),
        ),
      ),
    );
  }

  private async answer(request: FastifyRequest, reply: FastifyReply, body: unknown) {
    const deferred = takeDeferredCount(request);
    if (reply.statusCode !== 200) {
      await deferred?.count();
      return body;
    }
    let payload = body;
    let tag = reply.getHeader('etag');
    if (typeof tag !== 'string') {
      // Serialised here, as Fastify would (JSON.stringify), and sent as is: the tag is the hash
      // of the very bytes sent, computed without serialising twice.
      payload = JSON.stringify(body);
      const link = reply.getHeader('link');
      tag = strongEntityTag(
        representationTag(payload as string, typeof link === 'string' ? link : undefined),
      );
      void reply.header('etag', tag).type(JSON_TYPE);
    }
    const opaque = opaqueOf(tag);
    if (opaque !== undefined && namesEntityTag(request.headers['if-none-match'], opaque)) {
      // Not counted; the budget's headers as they stand, unless the store cannot say in time (a
      // 304 needs no budget: it is answered without them rather than refused).
      await deferred?.describe().catch(() => undefined);
      void reply.status(304);
      return undefined;
    }
    await deferred?.count();
    return payload;
  }
}

/**
 * Settles a deferred count that no interceptor settled: an answer given before the handler ran
 * (a later guard's, such as the sunset's 410) is counted as it is sent. It cannot be refused any
 * more: the count is recorded, and the answer stands.
 */
export function installDeferredCounts(fastify: FastifyInstance): void {
  // Every answer passes here: the usual one, with nothing deferred, goes on at once, without
  // the promise and microtask an async hook would cost each request.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const deferred = takeDeferredCount(request);
    if (!deferred || reply.statusCode === 304) return done(null, payload);
    void deferred
      .count()
      .catch(() => undefined)
      .then(() => done(null, payload));
  });
}
