import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { parseBearer } from '@pet-adoption/api-keys';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../http/api-error';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Protects the admin API with ADMIN_TOKEN. Without a token configured the admin API does not
 * exist: every request gets the 404 an unknown route would.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(config: AppConfig) {
    this.expected = config.adminToken === undefined ? undefined : digest(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (!this.expected) {
      throw new ApiError(
        404,
        'not_found',
        `No route for ${request.method} ${request.url.split('?')[0]}.`,
      );
    }
    const bearer = parseBearer(request.headers.authorization);
    // Digests have equal lengths, so the comparison takes the same time whatever was sent.
    if (bearer.kind === 'token' && timingSafeEqual(digest(bearer.token), this.expected))
      return true;
    void http
      .getResponse<FastifyReply>()
      .header(
        'WWW-Authenticate',
        bearer.kind === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"',
      );
    throw new ApiError(
      401,
      'unauthorized',
      'The admin API requires "Authorization: Bearer <ADMIN_TOKEN>".',
    );
  }
}
