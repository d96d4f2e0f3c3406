import { Injectable } from '@nestjs/common';
import { RateLimiter } from '@pet-adoption/rate-limit';
import { keySubject } from '../../common/rate-limit-subjects';
import { KeyUsage, Usage } from '../application/organization-keys';
import { Key } from '../domain/key';

/** A key's budget as the rate limiter counts it (in Redis when shared), read without counting. */
@Injectable()
export class RateLimiterKeyUsage extends KeyUsage {
  constructor(private readonly limiter: RateLimiter) {
    super();
  }

  async of(key: Key): Promise<Usage> {
    const { windows } = await this.limiter.peek({ id: keySubject(key.id), limits: key.limits });
    const window = (name: 'minute' | 'day') => {
      const { limit, remaining, resetAt } = windows.find((w) => w.name === name)!;
      return { limit, remaining, reset: resetAt };
    };
    return { minute: window('minute'), day: window('day') };
  }
}
