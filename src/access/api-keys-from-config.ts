import { ApiKeysModule } from '@pet-adoption/api-keys';
import { DEFAULT_SCOPES, SCOPES } from '../common/scopes';
import { AppConfig } from '../platform/config/app-config';
import { RedisKeyChangeBroadcast } from './redis-key-change-broadcast';

/**
 * The API-key library, configured from the environment; shared by AccessModule and the command
 * line, which loads it without the rate limiter and the guard (a file of its own for that).
 */
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
