import { Injectable } from '@nestjs/common';
import { RateLimitClock, WindowStore } from '@pet-adoption/rate-limit';
import { KeyBans } from './key-bans';
import { keySubject } from '../common/rate-limit-subjects';

/** The bans of API keys, as the rate limiter keeps them (shared through Redis when configured). */
@Injectable()
export class RateLimitKeyBans extends KeyBans {
  constructor(
    private readonly windows: WindowStore,
    private readonly clock: RateLimitClock,
  ) {
    super();
  }

  async bannedUntil(keyId: string): Promise<Date | null> {
    const until = await this.windows.bannedUntil(keySubject(keyId), this.clock.now());
    return until === null ? null : new Date(until);
  }

  lift(keyId: string): Promise<void> {
    return this.windows.liftBan(keySubject(keyId));
  }
}
