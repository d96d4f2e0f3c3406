import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RateLimitModule } from '@pet-adoption/rate-limit';
import { AccessGuard } from './access.guard';
import { apiKeysFromConfig } from './api-keys-from-config';
import { KeyBans } from './key-bans';
import { AppConfig } from '../platform/config/app-config';
import { ApiKeyRateLimitSubjectResolver } from './api-key-rate-limit-subject.resolver';
import { RateLimitKeyBans } from './rate-limit-key-bans';

/**
 * Who may call the API, and how often: API keys and plan-aware rate limits, in one global guard
 * (AccessGuard). The rate limiter decides first, so that 401s and 429s alike carry the rate-limit
 * headers, and an address guessing keys is limited before it is told its key is wrong; the scope
 * is checked last.
 */
@Module({
  imports: [
    apiKeysFromConfig(),
    RateLimitModule.forRootAsync({
      inject: [AppConfig],
      resolver: ApiKeyRateLimitSubjectResolver,
      useFactory: ({ rateLimit }: AppConfig) => ({
        redis: rateLimit.redis,
        redisKeyPrefix: rateLimit.redisKeyPrefix,
        anonymousLimits: rateLimit.anonymous,
        banThreshold: rateLimit.banThreshold,
        banSeconds: rateLimit.banSeconds,
        failClosed: rateLimit.failClosed,
        redisCommandTimeoutMs: rateLimit.commandTimeoutMs,
      }),
    }),
  ],
  providers: [
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: KeyBans, useClass: RateLimitKeyBans },
  ],
  exports: [KeyBans],
})
export class AccessModule {}
