import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { parseBearer } from '@pet-adoption/api-keys';
import { clientBudget, RateLimitClock, windowsAt, WindowStore } from '@pet-adoption/rate-limit';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { ApiError } from '../errors/api-error';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Failed authentications an address may make in one minute before /admin refuses it. */
export const ADMIN_FAILURES_PER_MINUTE = 10;

/**
 * Protects the admin API with ADMIN_TOKEN. Without a token configured the admin API does not
 * exist: every request gets the 404 an unknown route would.
 *
 * Failed authentications are counted per client address in the rate limiter's store (shared
 * between instances through Redis): past ADMIN_FAILURES_PER_MINUTE in a minute, the address is
 * refused with a 429 on /admin, right token or not, until the minute ends. An attempt is counted
 * before its token is compared, so the budget holds inside a burst; successes are given back.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(
    config: AppConfig,
    private readonly windows: WindowStore,
    private readonly clock: RateLimitClock,
  ) {
    this.expected =
      config.apiKeys.adminToken === undefined ? undefined : digest(config.apiKeys.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (!this.expected) {
      throw new ApiError(
        'not_found',
        `No route for ${request.method} ${request.url.split('?')[0]}.`,
      );
    }
    // Every attempt takes one of the address's ADMIN_FAILURES_PER_MINUTE slots, atomically, before
    // its token is compared; a success gives its slot back. Checking for a block first and counting
    // only failures let a burst compare 60 guesses, since none was counted yet (docs/adr/0024).
    const subject = `admin-auth:${clientBudget(request)}`;
    const now = this.clock.now();
    const attempt = await this.windows.hit({
      subject,
      limits: { perMinute: ADMIN_FAILURES_PER_MINUTE, perDay: Number.MAX_SAFE_INTEGER },
      now,
      // The attempt past the budget blocks the address until the current minute ends.
      banThreshold: 0,
      banMs: windowsAt(now).minute.end - now,
    });
    if (attempt.outcome === 'banned') this.refuse(reply, attempt.bannedUntil);

    const bearer = parseBearer(request.headers.authorization);
    // Digests have equal lengths, so the comparison takes the same time whatever was sent.
    if (bearer.kind === 'token' && timingSafeEqual(digest(bearer.token), this.expected)) {
      await this.windows.release(subject, now);
      return true;
    }
    void reply.header(
      'WWW-Authenticate',
      bearer.kind === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"',
    );
    throw new ApiError(
      'unauthorized',
      'The admin API requires "Authorization: Bearer <ADMIN_TOKEN>".',
    );
  }

  private refuse(reply: FastifyReply, until: number): never {
    const seconds = Math.max(1, Math.ceil((until - this.clock.now()) / 1000));
    void reply.header('Retry-After', String(seconds));
    throw new ApiError(
      'rate_limited',
      `Too many failed authentications from this address: the admin API refuses it for ${seconds} more seconds.`,
    );
  }
}
