import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/**
 * When the request was received: the instant Fastify routed it, once its headers had arrived and
 * before its body was read (`reply.elapsedTime` counts from there whenever an `onResponse` hook
 * is installed, as the request observer's is; without one it is 0, and this is the handler's
 * start). For a rule about requests in flight together (rolls of one key: the one applied first
 * wins), which the instant a handler starts, after the guards' round trips, would blur.
 */
export const ReceivedAt = createParamDecorator(
  (_: unknown, context: ExecutionContext): Date =>
    new Date(Date.now() - context.switchToHttp().getResponse<FastifyReply>().elapsedTime),
);
