/**
 * Typed configuration, read once from the environment and validated at start-up.
 * A bad value stops the service with a message that names the variable.
 */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export class AppConfig {
  port!: number;
  host!: string;
  /** Absolute base of the v1 API, used in Location and Link headers and in the OpenAPI servers. */
  publicBaseUrl!: string;
  stagingBaseUrl?: string;
  /** PostgreSQL connection string; when absent the service runs an embedded engine. */
  databaseUrl?: string;
  /** Where the embedded engine keeps its files. */
  dataDir!: string;
  runMigrations!: boolean;
  databasePoolSize!: number;
  databaseConnectTimeoutMs!: number;
  databaseStatementTimeoutMs!: number;
  /** Whether the hot statements are prepared per connection; off behind a transaction pooler. */
  databasePreparedStatements!: boolean;
  /** Instant from which the deprecated GET /v1/pets/{petId} answers 410. */
  getPetSunset!: Date;
  logLevel!: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** `json`: one JSON object a line, for log collectors; `text`: for people at a terminal. */
  logFormat!: 'json' | 'text';
  /** Bearer token of the admin API; when unset the admin API answers 404 to everything. */
  adminToken?: string;
  /** Prefix of issued API keys: `pet_live_` in production, `pet_test_` elsewhere. */
  apiKeyPrefix!: string;
  /** How long an API key look-up is trusted; a revoked key is refused everywhere within it. */
  apiKeyCacheTtlMs!: number;
  /** Shared rate-limit counters; without it they live in the process (one instance only). */
  redisUrl?: string;
  /** Prefix of the limiter's Redis keys, to share one Redis between deployments. */
  redisKeyPrefix!: string;
  anonymousPerMinute!: number;
  anonymousPerDay!: number;
  banThreshold!: number;
  banSeconds!: number;
  rateLimitFailClosed!: boolean;
  /** Browser origins allowed to call the API (CORS); none by default. */
  corsOrigins!: string[];
  /** Longest wait for in-flight requests on SIGTERM/SIGINT before exiting anyway. */
  shutdownGraceMs!: number;
  /** How far V8's old generation may outgrow its live data before a collection; 0: V8 decides. */
  heapGrowingPercent!: number;
  /** Which proxies to believe for the client address: none, a hop count, or their addresses. */
  trustProxy!: false | number | string;
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}".`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(name, `must be "true" or "false", got "${raw}".`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value may hold a password: never echo it.
    throw new ConfigError(name, 'is not a valid URL.');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}.`);
  }
  return raw;
}

/** A base address the service writes into headers (Location, Link) and documents. */
function baseUrl(env: Env, name: string): string | undefined {
  const raw = url(env, name, ['http:', 'https:']);
  // Nothing that could end a header value or a `<...>` link, or break a document.
  if (raw !== undefined && /[\s<>"]/.test(raw)) {
    throw new ConfigError(name, 'must be an absolute URL without white space, <, > or ".');
  }
  return raw?.replace(/\/+$/, '');
}

function instant(env: Env, name: string, fallback: string): Date {
  const raw = read(env, name) ?? fallback;
  const isIso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw);
  const date = new Date(raw);
  if (!isIso || Number.isNaN(date.getTime())) {
    throw new ConfigError(
      name,
      `must be an ISO 8601 instant such as 2030-12-05T00:00:00Z, got "${raw}".`,
    );
  }
  return date;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = read(env, name) ?? fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${raw}".`);
  }
  return raw as T;
}

/** RFC 6750 `b64token`: the characters a bearer token may hold. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function adminToken(env: Env): string | undefined {
  const token = read(env, 'ADMIN_TOKEN');
  // 32 characters of this alphabet carry well over 128 bits when chosen at random.
  if (token !== undefined && (token.length < 32 || !B64TOKEN.test(token))) {
    throw new ConfigError(
      'ADMIN_TOKEN',
      'must be at least 32 characters of A-Z a-z 0-9 - . _ ~ + / (then = padding), such as the output of `openssl rand -base64 32`.',
    );
  }
  return token;
}

function trustProxy(env: Env): false | number | string {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') {
    // Believing every hop lets any client choose the address it is rate-limited as.
    throw new ConfigError(
      'TRUST_PROXY',
      'must not be true (every client could choose its own address): give the number of proxies in front of the service, or their addresses or CIDRs.',
    );
  }
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  if (/^[0-9a-fA-F.:/, ]+$/.test(raw)) return raw;
  throw new ConfigError(
    'TRUST_PROXY',
    `must be false, a hop count, or a comma-separated list of proxy addresses or CIDRs, got "${raw}".`,
  );
}

function corsOrigins(env: Env): string[] {
  const origins = (read(env, 'CORS_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `must be a comma-separated list of origins such as https://shop.example, got "${origin}".`,
      );
    }
  }
  return origins;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const publicBaseUrl = baseUrl(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}/v1`;
  return Object.assign(new AppConfig(), {
    port,
    host: read(env, 'HOST') ?? '0.0.0.0',
    publicBaseUrl,
    stagingBaseUrl: baseUrl(env, 'STAGING_BASE_URL'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: read(env, 'DATA_DIR') ?? './data',
    runMigrations: boolean(env, 'RUN_MIGRATIONS', true),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseConnectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 1000, 1, 600_000),
    databaseStatementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5000, 1, 600_000),
    databasePreparedStatements: boolean(env, 'DATABASE_PREPARED_STATEMENTS', true),
    getPetSunset: instant(env, 'GET_PET_SUNSET', '2030-12-05T00:00:00Z'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['error', 'warn', 'log', 'debug', 'verbose'] as const, 'log'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'text'] as const, 'json'),
    adminToken: adminToken(env),
    apiKeyPrefix: oneOf(env, 'API_KEY_PREFIX', ['pet_live_', 'pet_test_'] as const, 'pet_live_'),
    // At most 5 s by contract, so that revocations reach every instance in time.
    apiKeyCacheTtlMs: integer(env, 'API_KEY_CACHE_TTL_MS', 2000, 0, 5000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: read(env, 'REDIS_KEY_PREFIX') ?? 'pet-adoption:rate-limit:',
    anonymousPerMinute: integer(env, 'ANONYMOUS_PER_MINUTE', 60, 1, 1_000_000),
    anonymousPerDay: integer(env, 'ANONYMOUS_PER_DAY', 1000, 1, 100_000_000),
    banThreshold: integer(env, 'BAN_THRESHOLD', 30, 1, 1_000_000),
    banSeconds: integer(env, 'BAN_SECONDS', 600, 1, 86_400 * 7),
    rateLimitFailClosed: boolean(env, 'RATE_LIMIT_FAIL_CLOSED', false),
    trustProxy: trustProxy(env),
    corsOrigins: corsOrigins(env),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    heapGrowingPercent: integer(env, 'HEAP_GROWING_PERCENT', 50, 0, 300),
  } satisfies AppConfig);
}
