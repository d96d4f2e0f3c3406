import { loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has working defaults when nothing is configured', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      http: { port: 3000, publicBaseUrl: 'http://localhost:3000/v1', trustProxy: false },
      database: {
        url: undefined,
        dataDir: './data',
        runMigrations: true,
        preparedStatements: true,
      },
      apiKeys: { prefix: 'pet_live_', cacheTtlMs: 1000, adminToken: undefined },
      organizations: { defaultName: 'The Pet Store' },
      rateLimit: { redis: undefined, anonymous: { perMinute: 60, perDay: 1000 } },
      observability: { logLevel: 'log', logFormat: 'json' },
      runtime: { heapGrowingPercent: 50 },
    });
    expect(config.http.sunsets.getPet.toISOString()).toBe('2030-12-05T00:00:00.000Z');
  });

  it.each([
    ['false', false],
    ['0', false],
    ['2', 2],
    ['10.0.0.1, 10.0.0.2', '10.0.0.1, 10.0.0.2'],
    ['10.0.0.0/8,fd00::/8', '10.0.0.0/8,fd00::/8'],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).http.trustProxy).toEqual(expected);
  });

  it('derives the public base URL from the port and drops a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).http.publicBaseUrl).toBe('http://localhost:8080/v1');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://pets.example/v1/' }).http.publicBaseUrl).toBe(
      'https://pets.example/v1',
    );
  });

  it.each([
    ['PORT', 'eighty', /PORT must be an integer/],
    ['PORT', '70000', /PORT must be an integer from 0 to 65535/],
    ['RUN_MIGRATIONS', 'yes', /RUN_MIGRATIONS must be "true" or "false"/],
    ['GET_PET_SUNSET', 'next year', /GET_PET_SUNSET must be an ISO 8601 instant/],
    ['PUBLIC_BASE_URL', 'not-a-url', /PUBLIC_BASE_URL is not a valid URL/],
    ['PUBLIC_BASE_URL', '/v1', /PUBLIC_BASE_URL is not a valid URL/],
    ['PUBLIC_BASE_URL', 'ftp://pets.example/v1', /PUBLIC_BASE_URL must use http: or https:/],
    [
      'PUBLIC_BASE_URL',
      'https://pets.example/v1>; rel="x"',
      /PUBLIC_BASE_URL must be an absolute URL without/,
    ],
    [
      'PUBLIC_BASE_URL',
      'https://pets.example/a b',
      /PUBLIC_BASE_URL must be an absolute URL without/,
    ],
    [
      'STAGING_BASE_URL',
      'https://staging.example/<v1',
      /STAGING_BASE_URL must be an absolute URL without/,
    ],
    [
      'PUBLIC_BASE_URL',
      'https://pets.example/v1>;rel=next',
      /PUBLIC_BASE_URL must be an absolute URL without/,
    ],
    [
      'STAGING_BASE_URL',
      'https://staging.example/"v1',
      /STAGING_BASE_URL must be an absolute URL without/,
    ],
    ['DATABASE_URL', 'mysql://db/pets', /DATABASE_URL must use postgres: or postgresql:/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    [
      'CORS_ORIGINS',
      'https://shop.example/path',
      /CORS_ORIGINS must be a comma-separated list of origins/,
    ],
    ['REDIS_URL', 'http://cache', /REDIS_URL must use redis: or rediss:/],
    [
      'REDIS_CLUSTER_NODES',
      'redis-1',
      /REDIS_CLUSTER_NODES must be a comma-separated list of host:port/,
    ],
    ['REDIS_CLUSTER_NODES', 'redis-1:6379,', /REDIS_CLUSTER_NODES must be a comma-separated list/],
    ['REDIS_CLUSTER_NODES', 'redis-1:70000', /REDIS_CLUSTER_NODES must be a comma-separated list/],
    [
      'REDIS_CLUSTER_NODES',
      'redis://redis-1:6379',
      /REDIS_CLUSTER_NODES must be a comma-separated/,
    ],
    ['REDIS_SENTINELS', 'sentinel-1:26379', /REDIS_SENTINELS needs REDIS_SENTINEL_NAME/],
    ['REDIS_SENTINEL_NAME', 'mymaster', /REDIS_SENTINEL_NAME is set without REDIS_SENTINELS/],
    ['BAN_SECONDS', '0', /BAN_SECONDS must be an integer/],
    ['TRUST_PROXY', 'everyone', /TRUST_PROXY must be false, a hop count/],
    ['TRUST_PROXY', 'true', /TRUST_PROXY must not be true/],
    ['RATE_LIMIT_FAIL_CLOSED', '1', /RATE_LIMIT_FAIL_CLOSED must be "true" or "false"/],
    ['REDIS_COMMAND_TIMEOUT_MS', '0', /REDIS_COMMAND_TIMEOUT_MS must be an integer/],
    ['ORDER_HOLD_SECONDS', '0', /ORDER_HOLD_SECONDS must be an integer/],
    ['ORDER_SWEEP_INTERVAL_MS', '60001', /ORDER_SWEEP_INTERVAL_MS must be an integer/],
    ['HEAP_GROWING_PERCENT', '500', /HEAP_GROWING_PERCENT must be an integer from 0 to 300/],
    [
      'DATABASE_PREPARED_STATEMENTS',
      'off',
      /DATABASE_PREPARED_STATEMENTS must be "true" or "false"/,
    ],
    ['ADMIN_TOKEN', 'short', /ADMIN_TOKEN must be at least 32 characters/],
    ['ADMIN_TOKEN', 'x'.repeat(31), /ADMIN_TOKEN must be at least 32 characters/],
    ['ADMIN_TOKEN', `${'x'.repeat(32)} with spaces`, /ADMIN_TOKEN must be at least 32 characters/],
    ['ADMIN_TOKEN', 'ä'.repeat(40), /ADMIN_TOKEN must be at least 32 characters/],
    [
      'ADMIN_TOKEN',
      `${'x'.repeat(16)}==${'x'.repeat(16)}`,
      /ADMIN_TOKEN must be at least 32 characters/,
    ],
    ['ADMIN_TOKEN', '='.repeat(32), /ADMIN_TOKEN must be at least 32 characters/],
    ['API_KEY_PREFIX', 'key_', /API_KEY_PREFIX must be one of pet_live_, pet_test_/],
    ['DEFAULT_ORGANIZATION_NAME', 'a\u0000b', /DEFAULT_ORGANIZATION_NAME must not contain the NUL/],
    ['DEFAULT_ORGANIZATION_NAME', 'x'.repeat(101), /DEFAULT_ORGANIZATION_NAME must be 1 to 100/],
    ['API_KEY_CACHE_TTL_MS', '1001', /API_KEY_CACHE_TTL_MS must be an integer from 0 to 1000/],
    ['API_KEY_KEEP_WARM_MS', '-1', /API_KEY_KEEP_WARM_MS must be an integer from 0 to 600000/],
  ])('stops on %s=%j with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('takes an admin token of 32 bearer-token characters or more', () => {
    const token = 'q0UXr2x/VXh8+Y5K~_-.a9Bz3LmNoPqR0sT=';
    expect(loadConfig({ ADMIN_TOKEN: token }).apiKeys.adminToken).toBe(token);
  });

  it('never echoes the admin token', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'tiny-secret' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('tiny-secret') }),
    );
  });

  it('never echoes a database URL, which may hold a password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:s3cret@[bad' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3cret') }),
    );
  });

  describe('Redis', () => {
    it('reads one server, a Cluster or a Sentinel-managed primary', () => {
      expect(loadConfig({ REDIS_URL: 'redis://cache:6379' }).rateLimit.redis).toEqual({
        kind: 'single',
        url: 'redis://cache:6379',
      });
      expect(
        loadConfig({ REDIS_CLUSTER_NODES: 'redis-1:7000, redis-2:7001,[::1]:7002' }).rateLimit
          .redis,
      ).toEqual({
        kind: 'cluster',
        nodes: [
          { host: 'redis-1', port: 7000 },
          { host: 'redis-2', port: 7001 },
          { host: '::1', port: 7002 },
        ],
      });
      expect(
        loadConfig({ REDIS_SENTINELS: 's-1:26379,s-2:26379', REDIS_SENTINEL_NAME: 'pets' })
          .rateLimit.redis,
      ).toEqual({
        kind: 'sentinel',
        sentinels: [
          { host: 's-1', port: 26379 },
          { host: 's-2', port: 26379 },
        ],
        name: 'pets',
      });
    });

    it.each([
      [
        { REDIS_URL: 'redis://cache', REDIS_CLUSTER_NODES: 'r:7000' },
        'REDIS_URL and REDIS_CLUSTER_NODES',
      ],
      [
        { REDIS_URL: 'redis://cache', REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'pets' },
        'REDIS_URL and REDIS_SENTINELS',
      ],
      [
        { REDIS_CLUSTER_NODES: 'r:7000', REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'pets' },
        'REDIS_CLUSTER_NODES and REDIS_SENTINELS',
      ],
      [
        { REDIS_URL: 'redis://cache', REDIS_CLUSTER_NODES: 'r:7000', REDIS_SENTINELS: 's:26379' },
        'REDIS_URL and REDIS_CLUSTER_NODES and REDIS_SENTINELS',
      ],
    ])('stops when more than one Redis is set (%j), naming them', (env, named) => {
      expect(() => loadConfig(env)).toThrow(
        expect.objectContaining({
          name: 'ConfigError',
          message: expect.stringMatching(
            new RegExp(`^Invalid configuration: ${named} are set together: .*set only one of`),
          ),
        }),
      );
    });

    it('takes a blank variable for an unset one', () => {
      expect(loadConfig({ REDIS_URL: '', REDIS_CLUSTER_NODES: 'r:7000' }).rateLimit.redis).toEqual({
        kind: 'cluster',
        nodes: [{ host: 'r', port: 7000 }],
      });
    });

    it('never echoes a Redis URL given beside another shape, which may hold a password', () => {
      expect(() =>
        loadConfig({ REDIS_URL: 'redis://:s3cret@cache', REDIS_CLUSTER_NODES: 'r:7000' }),
      ).toThrow(expect.objectContaining({ message: expect.not.stringContaining('s3cret') }));
    });
  });
  describe('photos', () => {
    it('keeps them under DATA_DIR with nothing configured, two at a time', () => {
      expect(loadConfig({}).photos).toEqual({
        storage: { kind: 'local', dir: 'data/photos' },
        publicBaseUrl: undefined,
        concurrency: 2,
        queueLength: 8,
        queuePerOrganization: 4,
        workers: 1,
        jobSeconds: 60,
        budget: { perMinute: 1200, perDay: 100_000 },
        bodyMemoryBytes: 64 * 1024 * 1024,
      });
      expect(loadConfig({ DATA_DIR: '/var/pets' }).photos.storage).toEqual({
        kind: 'local',
        dir: '/var/pets/photos',
      });
      expect(loadConfig({ PHOTO_DIR: '/srv/photos' }).photos.storage).toEqual({
        kind: 'local',
        dir: '/srv/photos',
      });
    });

    it('reads a bucket, its region, an S3-compatible endpoint and a public base', () => {
      expect(
        loadConfig({ PHOTO_S3_BUCKET: 'pet-photos', AWS_REGION: 'eu-west-1' }).photos,
      ).toMatchObject({
        storage: { kind: 's3', bucket: 'pet-photos', endpoint: undefined, region: 'eu-west-1' },
        publicBaseUrl: undefined,
      });
      expect(
        loadConfig({
          PHOTO_S3_BUCKET: 'pet-photos',
          PHOTO_S3_ENDPOINT: 'http://minio:9000/',
          PHOTO_PUBLIC_BASE_URL: 'https://cdn.pets.example/photos/',
        }).photos,
      ).toMatchObject({
        storage: { kind: 's3', endpoint: 'http://minio:9000', region: 'us-east-1' },
        publicBaseUrl: 'https://cdn.pets.example/photos',
      });
      expect(
        loadConfig({ PHOTO_S3_BUCKET: 'pet-photos', AWS_DEFAULT_REGION: 'us-west-2' }).photos
          .storage,
      ).toMatchObject({ region: 'us-west-2' });
    });

    it.each([
      [{ PHOTO_S3_BUCKET: 'pet-photos' }, /PHOTO_S3_BUCKET needs the bucket's region/],
      [
        { PHOTO_S3_BUCKET: 'Pet_Photos', AWS_REGION: 'eu-west-1' },
        /PHOTO_S3_BUCKET must be an S3 bucket name/,
      ],
      [
        { PHOTO_S3_BUCKET: 'pp', AWS_REGION: 'eu-west-1' },
        /PHOTO_S3_BUCKET must be an S3 bucket name/,
      ],
      [
        { PHOTO_S3_BUCKET: 'pet-photos', PHOTO_DIR: '/srv/photos', AWS_REGION: 'eu-west-1' },
        /PHOTO_DIR and PHOTO_S3_BUCKET are set together/,
      ],
      [
        { PHOTO_S3_ENDPOINT: 'http://minio:9000' },
        /PHOTO_S3_ENDPOINT is set without PHOTO_S3_BUCKET/,
      ],
      [
        { PHOTO_PUBLIC_BASE_URL: 'https://cdn.pets.example' },
        /PHOTO_PUBLIC_BASE_URL is set without PHOTO_S3_BUCKET/,
      ],
      [
        { PHOTO_S3_BUCKET: 'pet-photos', PHOTO_S3_ENDPOINT: 'minio:9000' },
        /PHOTO_S3_ENDPOINT is not a valid URL|PHOTO_S3_ENDPOINT must use http: or https:/,
      ],
      [
        {
          PHOTO_S3_BUCKET: 'pet-photos',
          AWS_REGION: 'eu-west-1',
          PHOTO_PUBLIC_BASE_URL: 'https://cdn.example/<',
        },
        /PHOTO_PUBLIC_BASE_URL must be an absolute URL without/,
      ],
      [{ PHOTO_CONCURRENCY: '0' }, /PHOTO_CONCURRENCY must be an integer from 1 to 64/],
      [{ PHOTO_WORKERS: '3' }, /PHOTO_WORKERS must be at most PHOTO_CONCURRENCY \(2\)/],
      [{ PHOTO_WORKERS: '0' }, /PHOTO_WORKERS must be an integer from 1 to 64/],
      [{ PHOTO_JOB_SECONDS: '0' }, /PHOTO_JOB_SECONDS must be an integer from 1 to 3600/],
      [
        { PHOTO_QUEUE_PER_ORGANIZATION: '8' },
        /PHOTO_QUEUE_PER_ORGANIZATION must be less than PHOTO_QUEUE_LENGTH \(8\)/,
      ],
      [{ PHOTO_QUEUE_LENGTH: '-1' }, /PHOTO_QUEUE_LENGTH must be an integer from 0 to 1000/],
      [{ PHOTO_GETS_PER_MINUTE: '0' }, /PHOTO_GETS_PER_MINUTE must be an integer/],
      [{ PHOTO_GETS_PER_DAY: 'lots' }, /PHOTO_GETS_PER_DAY must be an integer/],
      // Below 22 an organisation's half could not hold one image at the 11 MiB hard limit.
      [{ PHOTO_BODY_MEMORY_MB: '21' }, /PHOTO_BODY_MEMORY_MB must be an integer from 22 to 4096/],
    ])('stops on %j with a message naming the variable', (env, message) => {
      expect(() => loadConfig(env)).toThrow(message);
    });

    it('holds PHOTO_BODY_MEMORY_MB of image bodies', () => {
      expect(loadConfig({ PHOTO_BODY_MEMORY_MB: '128' }).photos.bodyMemoryBytes).toBe(
        128 * 1024 * 1024,
      );
    });

    it("takes more images at once without more of the service's libuv threads: they decode in workers", () => {
      expect(loadConfig({ PHOTO_CONCURRENCY: '4', PHOTO_WORKERS: '2' }).photos).toMatchObject({
        concurrency: 4,
        workers: 2,
      });
    });

    it('leaves one organisation half the queue unless told, and at most one place less than it all', () => {
      expect(loadConfig({ PHOTO_QUEUE_LENGTH: '20' }).photos.queuePerOrganization).toBe(10);
      expect(
        loadConfig({ PHOTO_QUEUE_LENGTH: '20', PHOTO_QUEUE_PER_ORGANIZATION: '19' }).photos
          .queuePerOrganization,
      ).toBe(19);
      expect(loadConfig({ PHOTO_QUEUE_LENGTH: '0' }).photos.queuePerOrganization).toBe(0);
    });
  });
});
