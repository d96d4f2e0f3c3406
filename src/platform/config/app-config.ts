import { isValidCIDR } from 'ipaddr.js';
import { join } from 'node:path';
import {
  baseUrl,
  boolean,
  ConfigError,
  Env,
  HostPort,
  hostPorts,
  instant,
  integer,
  oneOf,
  read,
  text,
  url,
} from './env';

export { ConfigError } from './env';

export interface HttpConfig {
  port: number;
  host: string;
  /** Absolute base of the v1 API, used in Location and Link headers and in the OpenAPI servers. */
  publicBaseUrl: string;
  stagingBaseUrl?: string;
  /** Which proxies to believe for the client address: none, a hop count, or their addresses. */
  trustProxy: false | number | string;
  /** Browser origins allowed to call the API (CORS); none by default. */
  corsOrigins: string[];
  /** Longest wait for in-flight requests on SIGTERM/SIGINT before exiting anyway. */
  shutdownGraceMs: number;
  /** The instant each deprecated operation answers 410 from, by the name its decorator gives. */
  sunsets: { getPet: Date };
}

export interface DatabaseConfig {
  /** PostgreSQL connection string; when absent the service runs an embedded engine. */
  url?: string;
  /** Where the embedded engine keeps its files. */
  dataDir: string;
  runMigrations: boolean;
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** Whether the hot statements are prepared per connection; off behind a transaction pooler. */
  preparedStatements: boolean;
}

export interface ApiKeysConfig {
  /** Prefix of issued API keys: `pet_live_` in production, `pet_test_` elsewhere. */
  prefix: 'pet_live_' | 'pet_test_';
  /** How long an API key look-up is trusted; a revoked key is refused everywhere within it. */
  cacheTtlMs: number;
  /** How long after its last use a key's trust is renewed ahead (docs/adr/0069); 0: never. */
  keepWarmMs: number;
  /** Bearer token of the admin API; when unset the admin API answers 404 to everything. */
  adminToken?: string;
}

/** The Redis holding the shared limits, in one of the shapes operators run. */
export type RedisConfig =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: HostPort[] }
  | { kind: 'sentinel'; sentinels: HostPort[]; name: string };

export interface RateLimitConfig {
  /** Shared rate-limit counters; without it they live in the process (one instance only). */
  redis?: RedisConfig;
  /** Prefix of the limiter's Redis keys, to share one Redis between deployments. */
  redisKeyPrefix: string;
  /** Limits of requests without a valid key, per client address. */
  anonymous: { perMinute: number; perDay: number };
  banThreshold: number;
  banSeconds: number;
  failClosed: boolean;
  /** How long a request waits for Redis's reply before it is answered 503 (the connection up). */
  commandTimeoutMs: number;
}

/** The shelters (docs/adr/0040). */
export interface OrganizationsConfig {
  /** The name organisation 1 takes at start-up while no one has changed it. */
  defaultName: string;
}

/** Fair use of the animals (docs/adr/0022). */
export interface StoreConfig {
  /** How long a `placed` order holds its pet before it expires. */
  orderHoldSeconds: number;
  /** How often this instance cancels expired orders and the placed orders of revoked keys. */
  orderSweepIntervalMs: number;
}

/** Events and their webhooks (docs/adr/0030, 0031). */
export interface WebhooksConfig {
  /** The whole of one delivery attempt: resolving, connecting, sending, the answer's head. */
  timeoutMs: number;
  /** Seconds between attempts, each ±20 %; after the last the delivery has failed. */
  retrySchedule: number[];
  /** An endpoint failing every attempt for this long is disabled (`failing`). */
  disableAfterHours: number;
  /** CIDRs exempt from the address rules, where plain http is allowed too; none by default. */
  allowedNetworks: string[];
  /** 32 bytes (base64) that encrypt endpoint secrets at rest; unset: they are stored as issued. */
  secretsKey?: Buffer;
  /** How long a claimed delivery is this instance's before another may take it over. */
  leaseSeconds: number;
  /** How often an idle instance looks for due deliveries. */
  pollIntervalMs: number;
  /** Attempts under way at once on this instance, and to one endpoint from it. */
  concurrency: number;
  endpointConcurrency: number;
  /** Endpoints one key may create in a minute (its own budget, apart from the key's). */
  endpointCreationsPerMinute: number;
}

export interface EventsConfig {
  /** Events older than this are deleted, with their deliveries. */
  retentionDays: number;
  /** How often an instance looks for recorded events to settle and number (docs/adr/0048). */
  settleIntervalMs: number;
}

export interface ApplicationsConfig {
  /** Ended applications' applicants are erased this long after their last change. */
  retentionDays: number;
}

/** Where the photos' variants are kept (docs/adr/0043). */
export type PhotoStorageConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** An S3-compatible service's address (MinIO, R2, ...): addressed path-style. */
      endpoint?: string;
      region: string;
    };

/** Photos of the pets: their storage, their processing, and the budget of their GETs. */
export interface PhotosConfig {
  storage: PhotoStorageConfig;
  /** Where clients fetch the variants from, instead of the service: a CDN or the bucket (S3 only). */
  publicBaseUrl?: string;
  /** Images processed at once on this instance, and how many more may wait for their turn. */
  concurrency: number;
  queueLength: number;
  /** How many of those waiting may be one organisation's (fewer than queueLength). */
  queuePerOrganization: number;
  /** Image worker processes this instance forks (docs/adr/0063). */
  workers: number;
  /** Seconds an image may take in a worker before the worker is ended and replaced. */
  jobSeconds: number;
  /** Image GETs per client address, apart from the anonymous budget. */
  budget: { perMinute: number; perDay: number };
  /**
   * Bytes of uploaded images held in memory at once (PHOTO_BODY_MEMORY_MB); an organisation may
   * hold half of them. Beyond, an upload is refused 503 before its body is read (docs/adr/0064).
   */
  bodyMemoryBytes: number;
}

export interface ObservabilityConfig {
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** `json`: one JSON object a line, for log collectors; `text`: for people at a terminal. */
  logFormat: 'json' | 'text';
}

export interface RuntimeConfig {
  /** How far V8's old generation may outgrow its live data before a collection; 0: V8 decides. */
  heapGrowingPercent: number;
}

/**
 * Typed configuration, nested by concern, read once from the environment (by main, which hands
 * it to the application module) and validated at start-up: a bad value stops the service with a
 * message naming the variable.
 */
export class AppConfig {
  organizations!: OrganizationsConfig;
  http!: HttpConfig;
  database!: DatabaseConfig;
  apiKeys!: ApiKeysConfig;
  rateLimit!: RateLimitConfig;
  store!: StoreConfig;
  events!: EventsConfig;
  applications!: ApplicationsConfig;
  webhooks!: WebhooksConfig;
  photos!: PhotosConfig;
  observability!: ObservabilityConfig;
  runtime!: RuntimeConfig;
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

function httpConfig(env: Env): HttpConfig {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  return {
    port,
    host: read(env, 'HOST') ?? '0.0.0.0',
    publicBaseUrl: baseUrl(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}/v1`,
    stagingBaseUrl: baseUrl(env, 'STAGING_BASE_URL'),
    trustProxy: trustProxy(env),
    corsOrigins: corsOrigins(env),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    sunsets: { getPet: instant(env, 'GET_PET_SUNSET', '2030-12-05T00:00:00Z') },
  };
}

function databaseConfig(env: Env): DatabaseConfig {
  return {
    url: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: read(env, 'DATA_DIR') ?? './data',
    runMigrations: boolean(env, 'RUN_MIGRATIONS', true),
    poolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 1000, 1, 600_000),
    statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5000, 1, 600_000),
    preparedStatements: boolean(env, 'DATABASE_PREPARED_STATEMENTS', true),
  };
}

function apiKeysConfig(env: Env): ApiKeysConfig {
  return {
    prefix: oneOf(env, 'API_KEY_PREFIX', ['pet_live_', 'pet_test_'] as const, 'pet_live_'),
    // At most 5 s by contract, so that revocations reach every instance in time.
    cacheTtlMs: integer(env, 'API_KEY_CACHE_TTL_MS', 1000, 0, 1000),
    keepWarmMs: integer(env, 'API_KEY_KEEP_WARM_MS', 10_000, 0, 600_000),
    adminToken: adminToken(env),
  };
}

const REDIS_SHAPES = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'];

/** One server (REDIS_URL), a Cluster (REDIS_CLUSTER_NODES), or Sentinels (REDIS_SENTINELS): one. */
function redisConfig(env: Env): RedisConfig | undefined {
  const set = REDIS_SHAPES.filter((name) => read(env, name) !== undefined);
  if (set.length > 1) {
    throw new ConfigError(
      set.join(' and '),
      `are set together: Redis is one of a single server (REDIS_URL), a Cluster's seed nodes (REDIS_CLUSTER_NODES) or the Sentinels of a primary (REDIS_SENTINELS); set only one of ${REDIS_SHAPES.join(', ')}.`,
    );
  }
  const name = read(env, 'REDIS_SENTINEL_NAME');
  if (name !== undefined && read(env, 'REDIS_SENTINELS') === undefined) {
    throw new ConfigError(
      'REDIS_SENTINEL_NAME',
      'is set without REDIS_SENTINELS: give the Sentinels that monitor the named primary.',
    );
  }
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  if (redisUrl !== undefined) return { kind: 'single', url: redisUrl };
  const nodes = hostPorts(env, 'REDIS_CLUSTER_NODES');
  if (nodes !== undefined) return { kind: 'cluster', nodes };
  const sentinels = hostPorts(env, 'REDIS_SENTINELS');
  if (sentinels === undefined) return undefined;
  if (name === undefined) {
    throw new ConfigError(
      'REDIS_SENTINELS',
      'needs REDIS_SENTINEL_NAME, the name under which the Sentinels monitor the primary.',
    );
  }
  return { kind: 'sentinel', sentinels, name };
}

function rateLimitConfig(env: Env): RateLimitConfig {
  return {
    redis: redisConfig(env),
    redisKeyPrefix: read(env, 'REDIS_KEY_PREFIX') ?? 'pet-adoption:rate-limit:',
    anonymous: {
      perMinute: integer(env, 'ANONYMOUS_PER_MINUTE', 60, 1, 1_000_000),
      perDay: integer(env, 'ANONYMOUS_PER_DAY', 1000, 1, 100_000_000),
    },
    banThreshold: integer(env, 'BAN_THRESHOLD', 30, 1, 1_000_000),
    banSeconds: integer(env, 'BAN_SECONDS', 600, 1, 86_400 * 7),
    failClosed: boolean(env, 'RATE_LIMIT_FAIL_CLOSED', false),
    commandTimeoutMs: integer(env, 'REDIS_COMMAND_TIMEOUT_MS', 2000, 10, 60_000),
  };
}

function observabilityConfig(env: Env): ObservabilityConfig {
  return {
    logLevel: oneOf(env, 'LOG_LEVEL', ['error', 'warn', 'log', 'debug', 'verbose'] as const, 'log'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'text'] as const, 'json'),
  };
}

const DEFAULT_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,50400,72000,86400';

function retrySchedule(env: Env): number[] {
  const raw = read(env, 'WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_RETRY_SCHEDULE;
  const seconds = raw.split(',').map((part) => part.trim());
  if (seconds.length > 50 || !seconds.every((part) => /^\d{1,7}$/.test(part) && Number(part) > 0)) {
    throw new ConfigError(
      'WEBHOOK_RETRY_SCHEDULE',
      `must be up to 50 comma-separated whole seconds from 1 to 9999999 such as ${DEFAULT_RETRY_SCHEDULE}, got "${raw}".`,
    );
  }
  return seconds.map(Number);
}

function allowedNetworks(env: Env): string[] {
  const cidrs = (read(env, 'WEBHOOK_ALLOWED_NETWORKS') ?? '')
    .split(',')
    .map((cidr) => cidr.trim())
    .filter(Boolean);
  for (const cidr of cidrs) {
    if (!isValidCIDR(cidr)) {
      throw new ConfigError(
        'WEBHOOK_ALLOWED_NETWORKS',
        `must be a comma-separated list of CIDRs such as 10.20.0.0/16,fd00::/8, got "${cidr}".`,
      );
    }
  }
  return cidrs;
}

function secretsKey(env: Env): Buffer | undefined {
  const raw = read(env, 'WEBHOOK_SECRETS_KEY');
  if (raw === undefined) return undefined;
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : undefined;
  if (key?.length !== 32) {
    // Never echoed: it is a secret.
    throw new ConfigError(
      'WEBHOOK_SECRETS_KEY',
      'must be 32 bytes in base64, such as the output of `openssl rand -base64 32`.',
    );
  }
  return key;
}

function webhooksConfig(env: Env): WebhooksConfig {
  const leaseSeconds = integer(env, 'WEBHOOK_LEASE_SECONDS', 60, 2, 60);
  // An attempt, and one queued behind another to the same endpoint, end within the lease.
  const timeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 30_000);
  if (2 * timeoutMs >= leaseSeconds * 1000) {
    throw new ConfigError(
      'WEBHOOK_TIMEOUT_MS',
      `must be less than half of WEBHOOK_LEASE_SECONDS (${leaseSeconds} s), got ${timeoutMs}.`,
    );
  }
  return {
    timeoutMs,
    retrySchedule: retrySchedule(env),
    disableAfterHours: integer(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 120, 1, 8760),
    allowedNetworks: allowedNetworks(env),
    secretsKey: secretsKey(env),
    leaseSeconds,
    pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 250, 10, 60_000),
    concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 64, 1, 1000),
    endpointConcurrency: integer(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 100),
    endpointCreationsPerMinute: integer(
      env,
      'WEBHOOK_ENDPOINT_CREATIONS_PER_MINUTE',
      10,
      1,
      10_000,
    ),
  };
}

/** S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function photoStorage(env: Env, dataDir: string): PhotoStorageConfig {
  const bucket = read(env, 'PHOTO_S3_BUCKET');
  const endpoint = baseUrl(env, 'PHOTO_S3_ENDPOINT');
  if (bucket === undefined) {
    for (const name of ['PHOTO_S3_ENDPOINT', 'PHOTO_PUBLIC_BASE_URL']) {
      if (read(env, name) !== undefined) {
        throw new ConfigError(
          name,
          'is set without PHOTO_S3_BUCKET: it applies to S3 storage only.',
        );
      }
    }
    return { kind: 'local', dir: read(env, 'PHOTO_DIR') ?? join(dataDir, 'photos') };
  }
  if (read(env, 'PHOTO_DIR') !== undefined) {
    throw new ConfigError(
      'PHOTO_DIR and PHOTO_S3_BUCKET',
      'are set together: photos are kept in a directory or in a bucket, not both.',
    );
  }
  if (!BUCKET.test(bucket)) {
    throw new ConfigError(
      'PHOTO_S3_BUCKET',
      `must be an S3 bucket name (3 to 63 of a-z 0-9 . -), got "${bucket}".`,
    );
  }
  // An S3-compatible service rarely cares for regions; AWS itself needs the bucket's.
  const region =
    read(env, 'AWS_REGION') ?? read(env, 'AWS_DEFAULT_REGION') ?? (endpoint && 'us-east-1');
  if (region === undefined) {
    throw new ConfigError('PHOTO_S3_BUCKET', "needs the bucket's region: set AWS_REGION.");
  }
  return { kind: 's3', bucket, endpoint, region };
}

function photosConfig(env: Env, dataDir: string): PhotosConfig {
  // Images decode in worker processes (docs/adr/0063), each with libuv threads of its own: the
  // service's threadpool no longer bounds PHOTO_CONCURRENCY.
  const concurrency = integer(env, 'PHOTO_CONCURRENCY', 2, 1, 64);
  const workers = integer(env, 'PHOTO_WORKERS', 1, 1, 64);
  if (workers > concurrency) {
    throw new ConfigError(
      'PHOTO_WORKERS',
      `must be at most PHOTO_CONCURRENCY (${concurrency}): each worker processes at least one image at a time, so more would stay idle.`,
    );
  }
  const queueLength = integer(env, 'PHOTO_QUEUE_LENGTH', 8, 0, 1000);
  const queuePerOrganization = integer(
    env,
    'PHOTO_QUEUE_PER_ORGANIZATION',
    Math.floor(queueLength / 2),
    0,
    1000,
  );
  if (queuePerOrganization > 0 && queuePerOrganization >= queueLength) {
    throw new ConfigError(
      'PHOTO_QUEUE_PER_ORGANIZATION',
      `must be less than PHOTO_QUEUE_LENGTH (${queueLength}), so that one organisation cannot fill the queue for the others.`,
    );
  }
  return {
    storage: photoStorage(env, dataDir),
    publicBaseUrl: baseUrl(env, 'PHOTO_PUBLIC_BASE_URL'),
    concurrency,
    queueLength,
    queuePerOrganization,
    workers,
    // A 40-megapixel image takes a few seconds; a niced worker on a saturated machine, longer.
    jobSeconds: integer(env, 'PHOTO_JOB_SECONDS', 60, 1, 3600),
    budget: {
      perMinute: integer(env, 'PHOTO_GETS_PER_MINUTE', 1200, 1, 1_000_000),
      perDay: integer(env, 'PHOTO_GETS_PER_DAY', 100_000, 1, 100_000_000),
    },
    // At least 22 MB: an organisation's half must hold one image at its hard limit (11 MiB).
    bodyMemoryBytes: integer(env, 'PHOTO_BODY_MEMORY_MB', 64, 22, 4096) * 1024 * 1024,
  };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const database = databaseConfig(env);
  return Object.assign(new AppConfig(), {
    organizations: { defaultName: text(env, 'DEFAULT_ORGANIZATION_NAME', 'The Pet Store', 100) },
    http: httpConfig(env),
    database,
    apiKeys: apiKeysConfig(env),
    rateLimit: rateLimitConfig(env),
    store: {
      orderHoldSeconds: integer(env, 'ORDER_HOLD_SECONDS', 259_200, 1, 365 * 86_400),
      // Every instance sweeps; within a minute of an expiry is the promise.
      orderSweepIntervalMs: integer(env, 'ORDER_SWEEP_INTERVAL_MS', 15_000, 100, 60_000),
    },
    events: {
      retentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
      settleIntervalMs: integer(env, 'EVENT_SETTLE_INTERVAL_MS', 100, 10, 60_000),
    },
    applications: {
      retentionDays: integer(env, 'APPLICATION_RETENTION_DAYS', 730, 1, 36_500),
    },
    webhooks: webhooksConfig(env),
    photos: photosConfig(env, database.dataDir),
    observability: observabilityConfig(env),
    runtime: { heapGrowingPercent: integer(env, 'HEAP_GROWING_PERCENT', 50, 0, 300) },
  } satisfies AppConfig);
}
