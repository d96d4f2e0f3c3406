// @swc/jest compiles TypeScript and the ESM-only NestJS 12 packages to CommonJS,
// so the tests run on every supported Node (22, 24, 26) without experimental flags (see docs/adr).
const swc = ['@swc/jest', require('./swc.options.cjs')];

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|cj|mj)s$': swc },
  // The ESM-only packages among the dependencies; everything else in node_modules is CommonJS.
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|@electric-sql|content-disposition|file-type|cookie|strtok3|token-types|uint8array-extras|@tokenizer)/)',
  ],
  moduleNameMapper: {
    // Each library's test doubles: an entry point of their own, never in the production build.
    '^@pet-adoption/(api-keys|rate-limit)/testing$': '<rootDir>/libs/$1/testing',
    '^@pet-adoption/api-keys(|/.*)$': '<rootDir>/libs/api-keys/src$1',
    '^@pet-adoption/rate-limit(|/.*)$': '<rootDir>/libs/rate-limit/src$1',
  },
};

module.exports = {
  // Both cores of the project's machines (docs/adr/0058): each worker has its own database, Redis
  // prefix and ports (test/support/worker-databases.ts, confinement.ts). `--maxWorkers` changes
  // it; `--runInBand` runs every file in one process, on one database.
  maxWorkers: 2,
  // The 15 slowest files of the run, at its end: a slow spec is seen the day it lands.
  reporters: ['default', '<rootDir>/test/support/slowest-files-reporter.js'],
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/libs/**/*.spec.ts',
        // The layer rules of .dependency-cruiser.js, against fixtures that break them.
        '<rootDir>/test/layer-rules/*.spec.ts',
        // The feature generator's edits to the shared files (tools/schematics).
        '<rootDir>/test/generator/*.spec.ts',
        // What the repository's files say of each other (the supported Node.js versions).
        '<rootDir>/test/repository/*.spec.ts',
      ],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // Node's environment, with the worker's own database as DATABASE_URL.
      testEnvironment: '<rootDir>/test/support/worker-environment.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/spec-cleanup.ts'],
      // Once per run that has e2e specs: the run's PostgreSQL and Redis (started here when the
      // machine has none), or one line saying what is missing. Unit specs need no peer, so a run
      // of them alone needs nothing but Node.js. The teardown's last line names the specs skipped
      // for want of an optional peer's programs (test/support/peers/optional-peers.ts).
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
