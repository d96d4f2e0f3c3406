import {
  DynamicModule,
  Inject,
  Injectable,
  Module,
  ModuleMetadata,
  OnApplicationShutdown,
  OnModuleInit,
  Type,
} from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { RateLimitClock, SystemRateLimitClock } from './clock';
import { MemoryWindowStore } from './memory-window-store';
import { PlanThrottlerGuard } from './plan-throttler.guard';
import { RateLimiter, THROTTLER_NAME } from './rate-limiter';
import {
  RATE_LIMIT_OPTIONS,
  RateLimitOptions,
  ResolvedRateLimitOptions,
  resolveRateLimitOptions,
} from './rate-limit.options';
import { RateLimitSubjectResolver } from './rate-limit-subject.resolver';
import { connectRedis, openRedis, redisAnswers } from './redis-connection';
import { RedisConnection, RedisWindowStore } from './redis-window-store';
import { ResilientWindowStore } from './resilient-window-store';
import { WindowStore } from './window-store';

const REDIS = Symbol('RATE_LIMIT_REDIS');

export interface RateLimitAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: (string | symbol | Type)[];
  useFactory: (...args: never[]) => RateLimitOptions | Promise<RateLimitOptions>;
  /** Who a request is counted for; the application's binding of the port. */
  resolver: Type<RateLimitSubjectResolver>;
  /** Another WindowStore in place of Redis or memory, chosen by `redis` otherwise. */
  store?: Type<WindowStore>;
}

/** What the readiness check needs to know of the limiter; the Redis connection's life. */
@Injectable()
export class RateLimitHealth implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly windows: WindowStore,
    @Inject(REDIS) private readonly redis: RedisConnection | null,
  ) {}

  /** `memory` without Redis; `up` or `down` with it (on a Cluster: every primary answers). */
  async status(): Promise<'memory' | 'up' | 'down'> {
    if (!this.redis) return 'memory';
    return (await redisAnswers(this.redis)) ? 'up' : 'down';
  }

  /** Whether requests are being counted per instance because Redis is unreachable. */
  get degraded(): boolean {
    return this.windows instanceof ResilientWindowStore && this.windows.degraded;
  }

  async onModuleInit(): Promise<void> {
    if (this.redis) await connectRedis(this.redis);
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}

/** The Redis connection of the configured shape, or null to count in the process. */
function redisFromOptions(options: ResolvedRateLimitOptions): RedisConnection | null {
  return options.redis ? openRedis(options.redis, options.redisCommandTimeoutMs) : null;
}

/**
 * Plan-aware rate limiting on @nestjs/throttler: register `PlanThrottlerGuard` as a global guard
 * (before authentication, so refusals of either kind carry the headers).
 */
@Module({})
export class RateLimitModule {
  static forRootAsync({
    imports = [],
    inject = [],
    useFactory,
    resolver,
    store,
  }: RateLimitAsyncOptions): DynamicModule {
    return {
      module: RateLimitModule,
      global: true,
      imports: [
        ...imports,
        // One throttler named "default", so that the package's own @SkipThrottle() applies. Its
        // ttl and limit are never read: the plans give the limits (PlanThrottlerGuard).
        ThrottlerModule.forRoot([{ name: THROTTLER_NAME, ttl: 60_000, limit: 1 }]),
      ],
      providers: [
        {
          provide: RATE_LIMIT_OPTIONS,
          inject,
          useFactory: async (...args: never[]) =>
            resolveRateLimitOptions(await useFactory(...args)),
        },
        { provide: REDIS, inject: [RATE_LIMIT_OPTIONS], useFactory: redisFromOptions },
        store
          ? { provide: WindowStore, useClass: store }
          : {
              provide: WindowStore,
              inject: [RATE_LIMIT_OPTIONS, REDIS],
              useFactory: (options: ResolvedRateLimitOptions, redis: RedisConnection | null) =>
                redis
                  ? new ResilientWindowStore(
                      new RedisWindowStore(redis, options.redisKeyPrefix),
                      options.failClosed,
                      () => redis.status === 'ready',
                    )
                  : new MemoryWindowStore(),
            },
        { provide: RateLimitClock, useClass: SystemRateLimitClock },
        { provide: RateLimitSubjectResolver, useClass: resolver },
        RateLimiter,
        PlanThrottlerGuard,
        RateLimitHealth,
      ],
      exports: [
        PlanThrottlerGuard,
        RateLimiter,
        RateLimitSubjectResolver,
        WindowStore,
        RateLimitHealth,
        RateLimitClock,
        RATE_LIMIT_OPTIONS,
      ],
    };
  }
}
