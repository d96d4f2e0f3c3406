import { CanActivate, ExecutionContext, HttpException, Injectable } from '@nestjs/common';
import { getApiClient } from '@pet-adoption/api-keys';
import {
  RateLimiter,
  RateLimitReply,
  RateLimits,
  RequestWithAddress,
} from '@pet-adoption/rate-limit';
import { AppConfig } from '../../platform/config/app-config';

/**
 * The budget of endpoint creations (CONTRACT.md, "Trust, round 3"): WEBHOOK_ENDPOINT_CREATIONS_
 * PER_MINUTE (default 10) per key, counted by the rate limiter in a subject of its own, with the
 * same windows, atomic counting across instances, 429s, `Retry-After` and bans as every budget.
 * It runs after the key's own budget admitted the request (the global guard). An admitted request
 * keeps the headers of the key's budget, as every other response; a refused one carries those of
 * the window that refused it, and a message that names this budget.
 */
@Injectable()
export class EndpointCreationBudgetGuard implements CanActivate {
  private readonly limits: RateLimits;

  constructor(
    private readonly limiter: RateLimiter,
    config: AppConfig,
  ) {
    const perMinute = config.webhooks.endpointCreationsPerMinute;
    // No day window of its own: as many minutes as a day has.
    this.limits = { perMinute, perDay: perMinute * 1440 };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<RequestWithAddress>();
    const reply = http.getResponse<RateLimitReply>();
    const client = getApiClient(request);
    // No key, no creation: the key guard has already answered 401.
    if (!client) return true;
    const written: [string, string][] = [];
    try {
      await this.limiter.limit(
        request,
        { header: (name: string, value: string) => written.push([name, value]) },
        { id: `webhook-endpoint-creations:key:${client.keyId}`, limits: this.limits },
      );
    } catch (error) {
      for (const [name, value] of written) reply.header(name, value);
      throw this.named(error);
    }
    return true;
  }

  /** The limiter's refusal, saying which budget refused. */
  private named(error: unknown): unknown {
    if (!(error instanceof HttpException) || error.getStatus() !== 429) return error;
    const { code, message } = error.getResponse() as { code: string; message: string };
    const budget = `Endpoint creations: at most ${this.limits.perMinute} a minute per key.`;
    return new HttpException({ code, message: `${budget} ${message}` }, 429);
  }
}
