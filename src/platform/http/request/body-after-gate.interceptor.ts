import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getApiClient } from '@pet-adoption/api-keys';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rm } from 'node:fs/promises';
import { finalize, from, Observable, switchMap } from 'rxjs';
import { ApiError } from '../errors/api-error';
import { routeFactsOf } from '../route-facts/route-facts';
import { ImageBodyBudget } from './image-body-budget';
import { ImageSpool } from './image-spool';
import {
  BODY_HARD_LIMIT_BYTES,
  DATA_FILE_HARD_LIMIT_BYTES,
  DataFileBody,
  IMAGE_BODY_HARD_LIMIT_BYTES,
  IMAGE_HEAD_BYTES,
  ImageBody,
  parseJson,
  RejectedBody,
  tooLarge,
} from './json-body';
import { PendingBody } from './pending-body';

const imageTooLarge = () =>
  new RejectedBody(
    new ApiError(
      'payload_too_large',
      `The image is larger than ${IMAGE_BODY_HARD_LIMIT_BYTES / 1024 / 1024} MiB.`,
    ),
  );

const dataFileTooLarge = () =>
  new RejectedBody(
    new ApiError(
      'payload_too_large',
      `The file is larger than ${DATA_FILE_HARD_LIMIT_BYTES / 1024 / 1024} MiB.`,
    ),
  );

/**
 * Reads the request's body, and only now: interceptors run after every guard, so the route is
 * known, the key valid, its scope held and the rate limit passed (docs/adr/0064). Only an operation
 * that takes a body (`@Body()`, or `@AcceptsImage()`) reads one; the others, and every refusal
 * before this point, leave it unread (the response hook then closes the connection if it is
 * large). An image's bytes are first reserved in the instance's image budget (503 beyond), then
 * written to a file of the spool as they come (`ImageSpool`), removed once the operation is done; a
 * body over its hard limit is refused 413 unread, and one that outgrows it is refused where it does.
 */
@Injectable()
export class BodyAfterGateInterceptor implements NestInterceptor {
  private readonly takesBody = new WeakMap<object, boolean>();

  constructor(
    private readonly budget: ImageBodyBudget,
    private readonly spool: ImageSpool,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const body = request.body;
    if (!(body instanceof PendingBody) || !this.takesBodyOf(context)) return next.handle();
    return from(this.receive(request, http.getResponse<FastifyReply>(), body)).pipe(
      switchMap(() => next.handle()),
      // An image's file goes once the operation is done with it, answered or failed (one that
      // cannot be removed now goes with the spool at shutdown).
      finalize(() => {
        if (request.body instanceof ImageBody)
          rm(request.body.path, { force: true }).catch(() => undefined);
      }),
    );
  }

  private async receive(
    request: FastifyRequest,
    reply: FastifyReply,
    body: PendingBody,
  ): Promise<void> {
    if (body.kind === 'json') {
      if ((body.declaredLength ?? 0) > BODY_HARD_LIMIT_BYTES) {
        request.body = tooLarge();
        return;
      }
      // Up to the hard limit the body is read, so that a refusal keeps the connection.
      const bytes = await body.read(BODY_HARD_LIMIT_BYTES);
      request.body = bytes === undefined ? tooLarge() : parseJson(bytes.toString('utf8'));
      return;
    }
    const declared = body.declaredLength;
    if (body.kind === 'data') {
      // A shelter's file, up to 50 MiB: read only now, once its key holds the scope it needs.
      if (declared !== undefined && declared > DATA_FILE_HARD_LIMIT_BYTES) {
        request.body = dataFileTooLarge();
        return;
      }
      const bytes = await body.read(declared ?? DATA_FILE_HARD_LIMIT_BYTES);
      request.body =
        bytes === undefined ? dataFileTooLarge() : new DataFileBody(bytes, body.contentType);
      return;
    }
    if (declared !== undefined && declared > IMAGE_BODY_HARD_LIMIT_BYTES) {
      request.body = imageTooLarge();
      return;
    }
    const client = getApiClient(request);
    const release = this.budget.reserve(
      client?.organizationId ?? `key:${client?.keyId ?? 'none'}`,
      declared ?? IMAGE_BODY_HARD_LIMIT_BYTES,
    );
    // The bytes stay held until the answer has gone (or the connection with it).
    reply.raw.once('close', release);
    try {
      // Written to disk as it comes: the images waiting for their turn are not held in memory.
      const path = await this.spool.newFile();
      const spooled = await body.spool(
        declared ?? IMAGE_BODY_HARD_LIMIT_BYTES,
        path,
        IMAGE_HEAD_BYTES,
      );
      request.body =
        spooled === undefined
          ? imageTooLarge()
          : new ImageBody(path, spooled.size, spooled.head, body.contentType);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Whether the route's handler takes a body at all, from its parameters' metadata, once. */
  private takesBodyOf(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let takes = this.takesBody.get(handler);
    if (takes === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ??
        {}) as Record<string, unknown>;
      takes =
        routeFactsOf(handler)?.acceptsImage === true ||
        routeFactsOf(handler)?.acceptsDataFile === true ||
        Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
      this.takesBody.set(handler, takes);
    }
    return takes;
  }
}
