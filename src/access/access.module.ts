import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysModule } from '@pet-adoption/api-keys';
import { RateLimitModule } from '@pet-adoption/rate-limit';
import { AccessGuard } from './access.guard';
import { KeyBans } from './key-bans';
import { AppConfig } from '../platform/config/app-config';
import { ApiKeyRateLimitSubjectResolver } from './api-key-rate-limit-subject.resolver';
import { RateLimitKeyBans } from './rate-limit-key-bans';
import { DEFAULT_SCOPES, SCOPES } from '../common/scopes';
import { RedisKeyChangeBroadcast } from './redis-key-change-broadcast';

/** The API-key library, configured from the environment; shared with the command line. */
export function apiKeysFromConfig() {
  return ApiKeysModule.forRootAsync({
    inject: [AppConfig],
    useFactory: (config: AppConfig) => ({
      keyPrefix: config.apiKeys.prefix,
      cacheTtlMs: config.apiKeys.cacheTtlMs,
      keepWarmMs: config.apiKeys.keepWarmMs,
      scopes: { known: SCOPES, defaults: DEFAULT_SCOPES },
    }),
    broadcast: { useClass: RedisKeyChangeBroadcast },
  });
}

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
