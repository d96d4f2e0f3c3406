import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { KeyChange, KeyChangeBroadcast } from '@pet-adoption/api-keys';
import { connectRedis, openRedis, RedisConnection } from '@pet-adoption/rate-limit';
import { AppConfig } from '../platform/config/app-config';

/**
 * Tells every instance that a key changed through Redis publish/subscribe on the Redis the limits
 * live in (one server, a Sentinel-managed primary or a Cluster: a message reaches the subscribers
 * of every node), so that a key issued, rolled or revoked anywhere is known everywhere within
 * milliseconds. Without Redis there is one instance, which hears its own changes. Best effort: a
 * message lost while Redis is away is made up for by each instance's refresh of changed keys.
 */
@Injectable()
export class RedisKeyChangeBroadcast
  extends KeyChangeBroadcast
  implements OnModuleInit, OnModuleDestroy
{
  private readonly logger = new Logger('ApiKeys');
  private readonly listeners: ((change: KeyChange) => void)[] = [];
  private readonly channel: string;
  private readonly publisher?: RedisConnection;
  private readonly subscriber?: RedisConnection;

  constructor(config: AppConfig) {
    super();
    const { redis, redisKeyPrefix, commandTimeoutMs } = config.rateLimit;
    this.channel = `${redisKeyPrefix}key-changes`;
    if (redis) {
      this.publisher = openRedis(redis, commandTimeoutMs);
      this.subscriber = openRedis(redis, commandTimeoutMs);
    }
  }

  async onModuleInit(): Promise<void> {
    const { subscriber, publisher } = this;
    if (!subscriber || !publisher) return;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.tell(parsed(message));
    });
    // Subscribed again on every (re)connection: one made while Redis was away has no subscription.
    const subscribe = () => subscriber.subscribe(this.channel).catch(() => undefined);
    subscriber.on('ready', () => void subscribe());
    await Promise.all([connectRedis(publisher), connectRedis(subscriber)]);
    // Serving only once subscribed: a key issued elsewhere right after this instance came up must
    // not be a guess here (CONTRACT, Trust round 3: known everywhere within 100 ms).
    if (subscriber.status === 'ready') await subscribe();
  }

  onModuleDestroy(): void {
    this.subscriber?.disconnect();
    this.publisher?.disconnect();
  }

  async publish(change: KeyChange): Promise<void> {
    if (!this.publisher) return this.tell(change);
    try {
      await this.publisher.publish(this.channel, JSON.stringify(change));
    } catch (error) {
      // No one else hears it now; this instance must, and the others learn at their refresh.
      this.logger.warn(
        `Could not broadcast a change of key ${change.keyId}: ${(error as Error).message}`,
      );
      this.tell(change);
    }
  }

  subscribe(listener: (change: KeyChange) => void): void {
    this.listeners.push(listener);
  }

  private tell(change: KeyChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** A change as published: JSON, where Infinity (a secret for good) travels as null. */
function parsed(message: string): KeyChange {
  const change = JSON.parse(message) as KeyChange;
  for (const secret of change.secrets) secret.until ??= Infinity;
  return change;
}
