import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import {
  clientBudget,
  RateLimiter,
  RateLimitReply,
  RequestWithAddress,
} from '@pet-adoption/rate-limit';
import { AppConfig } from '../../platform/config/app-config';
import { RateLimits } from '@pet-adoption/rate-limit';

/**
 * The budget of image GETs (CONTRACT.md, "Photos"): a page of 20 animals is 20 images or more from
 * one browser, so they are not charged to the address's anonymous budget but to one of their own,
 * per address (an IPv4 address, an IPv6 /64), PHOTO_GETS_PER_MINUTE and PHOTO_GETS_PER_DAY, with
 * the same windows, headers, 429s and bans as every other budget. A key sent with them changes
 * nothing: the pixels are public.
 */
@Injectable()
export class PhotoBudgetGuard implements CanActivate {
  private readonly limits: RateLimits;

  constructor(
    private readonly limiter: RateLimiter,
    config: AppConfig,
  ) {
    this.limits = config.photos.budget;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<RequestWithAddress>();
    await this.limiter.limit(request, http.getResponse<RateLimitReply>(), {
      id: `photos:${clientBudget(request)}`,
      limits: this.limits,
    });
    return true;
  }
}
