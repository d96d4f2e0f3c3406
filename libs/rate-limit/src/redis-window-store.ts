import Redis from 'ioredis';
import { exhaustedWindow, HitRequest, HitResult, WindowStore } from './window-store';
import { windowsAt, windowStates } from './windows';

/**
 * One round trip, one atomic step: check the ban, check both windows, then either count the
 * request in both or count a refusal (and ban past the threshold). Keys expire with their windows.
 * A counter holding something the limiter never writes (another type, or text that is not a
 * whole number) is dropped and counted again from zero, rather than failing every request of the
 * subject until the window ends.
 * KEYS: minute counter, day counter, refusal counter, ban. ARGV: per-minute limit, per-day limit,
 * minute TTL ms, day TTL ms, ban threshold, ban ms. Returns {outcome, minute, day, ban ms left}
 * with outcome 0 admitted, 1 limited, 2 banned.
 */
const HIT_SCRIPT = `
local function count(key)
  local value = redis.pcall('GET', key)
  if type(value) == 'table' or (value and not string.match(value, '^%d+$')) then
    redis.call('DEL', key)
    return 0
  end
  return tonumber(value or '0')
end
local banLeft = redis.call('PTTL', KEYS[4])
local minute = count(KEYS[1])
local day = count(KEYS[2])
if banLeft > 0 then return {2, minute, day, banLeft} end
if minute < tonumber(ARGV[1]) and day < tonumber(ARGV[2]) then
  minute = redis.call('INCR', KEYS[1])
  if minute == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
  day = redis.call('INCR', KEYS[2])
  if day == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
  return {0, minute, day, 0}
end
count(KEYS[3])
local refusals = redis.call('INCR', KEYS[3])
if refusals == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[3]) end
if refusals > tonumber(ARGV[5]) then
  redis.call('SET', KEYS[4], '1', 'PX', ARGV[6])
  redis.call('DEL', KEYS[3])
  return {2, minute, day, tonumber(ARGV[6])}
end
return {1, minute, day, 0}
`;

/** Margin kept on key lifetimes so a counter never expires before its window ends. */
const EXPIRY_MARGIN_MS = 5_000;

type HitCommand = (...args: (string | number)[]) => Promise<[number, number, number, number]>;

/** The windows in Redis, shared by every instance: exact across any number of them. */
export class RedisWindowStore extends WindowStore {
  private readonly hitCommand: HitCommand;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'rate-limit:',
  ) {
    super();
    redis.defineCommand('rateLimitHit', { numberOfKeys: 4, lua: HIT_SCRIPT });
    this.hitCommand = (redis as unknown as { rateLimitHit: HitCommand }).rateLimitHit.bind(redis);
  }

  async hit({ subject, limits, now, banThreshold, banMs }: HitRequest): Promise<HitResult> {
    const { minute, day } = windowsAt(now);
    // The hash tag keeps a subject's keys in one slot, as a Redis Cluster requires for a script.
    const base = `${this.keyPrefix}{${subject}}`;
    const [outcome, minuteCount, dayCount, banLeft] = await this.hitCommand(
      `${base}:m:${minute.start}`,
      `${base}:d:${day.start}`,
      `${base}:r:${minute.start}`,
      `${base}:ban`,
      limits.perMinute,
      limits.perDay,
      minute.end - now + EXPIRY_MARGIN_MS,
      day.end - now + EXPIRY_MARGIN_MS,
      banThreshold,
      banMs,
    );
    const windows = windowStates(now, limits, minuteCount, dayCount);
    if (outcome === 0) return { outcome: 'admitted', windows };
    if (outcome === 2) return { outcome: 'banned', windows, bannedUntil: now + banLeft };
    return {
      outcome: 'limited',
      windows,
      exhausted: exhaustedWindow(limits, minuteCount, dayCount),
    };
  }

  async bannedUntil(subject: string, now: number): Promise<number | null> {
    const left = await this.redis.pttl(`${this.keyPrefix}{${subject}}:ban`);
    return left > 0 ? now + left : null;
  }

  async liftBan(subject: string): Promise<void> {
    const { minute } = windowsAt(Date.now());
    const base = `${this.keyPrefix}{${subject}}`;
    await this.redis.del(`${base}:ban`, `${base}:r:${minute.start}`);
  }
}
