import type { Cluster, Redis } from 'ioredis';
import { exhaustedWindow, HitRequest, HitResult, WindowStore, WindowsNow } from './window-store';
import { DAY_MS, MINUTE_MS, RateLimits, windowStates } from './windows';

/** Margin kept on key lifetimes so a counter never expires before its window ends. */
const EXPIRY_MARGIN_MS = 5_000;

/**
 * The server's time in Unix ms, and the starts of its minute and day as key suffixes. Every
 * instance reads the same clock, so instances whose own clocks disagree still share each window.
 * (Scripts are replicated by their effects since Redis 5, which is what lets a script read TIME.)
 */
const SERVER_WINDOWS = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local minuteStart = now - now % ${MINUTE_MS}
local dayStart = now - now % ${DAY_MS}
local minuteSuffix = string.format('%.0f', minuteStart)
local daySuffix = string.format('%.0f', dayStart)
`;

/**
 * One round trip, one atomic step: check the ban, check both windows, then either count the
 * request in both or count a refusal (and ban past the threshold). Keys expire with their windows.
 * A counter holding something the limiter never writes (another type, or text that is not a
 * whole number) is dropped and counted again from zero, rather than failing every request of the
 * subject until the window ends.
 *
 * KEYS[1]: the subject's ban. KEYS[2]: the subject's key base, hash-tagged like KEYS[1]: the
 * counters are named from it and from the server's minute and day, which only the script knows,
 * so they cannot be declared; they share the declared keys' hash slot, as a Redis Cluster needs.
 * ARGV: per-minute limit, per-day limit, ban threshold, ban ms.
 * Returns {outcome, minute count, day count, ban ms left, server now ms} with outcome 0 admitted,
 * 1 limited, 2 banned.
 */
const HIT_SCRIPT = `${SERVER_WINDOWS}
local minuteKey = KEYS[2] .. ':m:' .. minuteSuffix
local dayKey = KEYS[2] .. ':d:' .. daySuffix
local refusalKey = KEYS[2] .. ':r:' .. minuteSuffix
local minuteTtl = minuteStart + ${MINUTE_MS} - now + ${EXPIRY_MARGIN_MS}
local dayTtl = dayStart + ${DAY_MS} - now + ${EXPIRY_MARGIN_MS}
local function count(key)
  local value = redis.pcall('GET', key)
  if type(value) == 'table' or (value and not string.match(value, '^%d+$')) then
    redis.call('DEL', key)
    return 0
  end
  return tonumber(value or '0')
end
local banLeft = redis.call('PTTL', KEYS[1])
local minute = count(minuteKey)
local day = count(dayKey)
if banLeft > 0 then return {2, minute, day, banLeft, now} end
if minute < tonumber(ARGV[1]) and day < tonumber(ARGV[2]) then
  minute = redis.call('INCR', minuteKey)
  if minute == 1 then redis.call('PEXPIRE', minuteKey, minuteTtl) end
  day = redis.call('INCR', dayKey)
  if day == 1 then redis.call('PEXPIRE', dayKey, dayTtl) end
  return {0, minute, day, 0, now}
end
count(refusalKey)
local refusals = redis.call('INCR', refusalKey)
if refusals == 1 then redis.call('PEXPIRE', refusalKey, minuteTtl) end
if refusals > tonumber(ARGV[3]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[4])
  redis.call('DEL', refusalKey)
  return {2, minute, day, tonumber(ARGV[4]), now}
end
return {1, minute, day, 0, now}
`;

/** Lifts a ban: drops it and the refusals of the server's current minute. KEYS as HIT_SCRIPT's. */
const LIFT_BAN_SCRIPT = `${SERVER_WINDOWS}
redis.call('DEL', KEYS[1], KEYS[2] .. ':r:' .. minuteSuffix)
return 1
`;

/** Gives back one admitted request of the server's current windows, never below zero. KEYS as HIT_SCRIPT's. */
const RELEASE_SCRIPT = `${SERVER_WINDOWS}
for _, key in ipairs({KEYS[2] .. ':m:' .. minuteSuffix, KEYS[2] .. ':d:' .. daySuffix}) do
  local value = tonumber(redis.call('GET', key) or '0')
  if value and value > 0 then redis.call('DECR', key) end
end
return 1
`;

/** Reads both counters of the server's current windows, counting nothing. KEYS as HIT_SCRIPT's. */
const PEEK_SCRIPT = `${SERVER_WINDOWS}
local function count(key)
  local value = redis.pcall('GET', key)
  if type(value) ~= 'string' or not string.match(value, '^%d+$') then return 0 end
  return tonumber(value)
end
return {count(KEYS[2] .. ':m:' .. minuteSuffix), count(KEYS[2] .. ':d:' .. daySuffix), now}
`;

/** A connection of any shape: one server (direct or found through Sentinel), or a Cluster. */
export type RedisConnection = Redis | Cluster;

type HitCommand = (
  ...args: (string | number)[]
) => Promise<[number, number, number, number, number]>;
type KeysCommand = (...keys: string[]) => Promise<number>;
type PeekCommand = (...keys: string[]) => Promise<[number, number, number]>;

/**
 * The windows in Redis, shared by every instance: exact across any number of them, on one
 * server, a Sentinel-managed primary or a Cluster. The windows follow the Redis server's clock:
 * the caller's `now` is not used to place them.
 */
export class RedisWindowStore extends WindowStore {
  private readonly hitCommand: HitCommand;
  private readonly liftBanCommand: KeysCommand;
  private readonly releaseCommand: KeysCommand;
  private readonly peekCommand: PeekCommand;

  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix = 'rate-limit:',
  ) {
    super();
    redis.defineCommand('rateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    redis.defineCommand('rateLimitLiftBan', { numberOfKeys: 2, lua: LIFT_BAN_SCRIPT });
    redis.defineCommand('rateLimitRelease', { numberOfKeys: 2, lua: RELEASE_SCRIPT });
    redis.defineCommand('rateLimitPeek', { numberOfKeys: 2, lua: PEEK_SCRIPT });
    const commands = redis as unknown as {
      rateLimitHit: HitCommand;
      rateLimitLiftBan: KeysCommand;
      rateLimitRelease: KeysCommand;
      rateLimitPeek: PeekCommand;
    };
    this.hitCommand = commands.rateLimitHit.bind(redis);
    this.liftBanCommand = commands.rateLimitLiftBan.bind(redis);
    this.releaseCommand = commands.rateLimitRelease.bind(redis);
    this.peekCommand = commands.rateLimitPeek.bind(redis);
  }

  async hit({ subject, limits, banThreshold, banMs }: HitRequest): Promise<HitResult> {
    const [outcome, minuteCount, dayCount, banLeft, now] = await this.hitCommand(
      ...this.keysOf(subject),
      limits.perMinute,
      limits.perDay,
      banThreshold,
      banMs,
    );
    const windows = windowStates(now, limits, minuteCount, dayCount);
    if (outcome === 0) return { outcome: 'admitted', windows, now };
    if (outcome === 2) return { outcome: 'banned', windows, bannedUntil: now + banLeft, now };
    return {
      outcome: 'limited',
      windows,
      exhausted: exhaustedWindow(limits, minuteCount, dayCount),
      now,
    };
  }

  /** The end of the ban by the caller's clock: what is left of it, from `now`. */
  async bannedUntil(subject: string, now: number): Promise<number | null> {
    const left = await this.redis.pttl(this.keysOf(subject)[0]);
    return left > 0 ? now + left : null;
  }

  async liftBan(subject: string): Promise<void> {
    await this.liftBanCommand(...this.keysOf(subject));
  }

  async release(subject: string): Promise<void> {
    await this.releaseCommand(...this.keysOf(subject));
  }

  async peek(subject: string, limits: RateLimits): Promise<WindowsNow> {
    const [minuteCount, dayCount, now] = await this.peekCommand(...this.keysOf(subject));
    return { windows: windowStates(now, limits, minuteCount, dayCount), now };
  }

  /**
   * The subject's ban key and key base. The hash tag puts every key of a subject in one slot, as a
   * Redis Cluster requires of the keys one script touches.
   */
  private keysOf(subject: string): [ban: string, base: string] {
    const base = `${this.keyPrefix}{${subject}}`;
    return [`${base}:ban`, base];
  }
}
