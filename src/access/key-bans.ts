/** Port: the temporary bans of API keys, as the rate limiter keeps them. */
export abstract class KeyBans {
  abstract bannedUntil(keyId: string): Promise<Date | null>;
  abstract lift(keyId: string): Promise<void>;
}
