/**
 * The layer arrows (README, "Layout"): a wrong import fails `npm run lint`.
 *   features (src/pets, ...): http, infrastructure ─▶ application ─▶ domain ─▶ src/common
 *   src/platform: what every feature stands on; it never imports a feature
 *   libs/*: imported by src/, never importing src/, and not each other
 * A feature is any folder of src/ but the two below, so a new one is covered the moment its folder
 * exists (docs/adr/0027); test/layer-rules/ proves every rule on a fixture tree that breaks it.
 */
const notAFeature = '^src/(common|platform)/';
/** What a feature offers the others: its ports and the module binding them (docs/adr/0068). */
const publicPorts = ['^src/[^/]+/application/ports/', '^src/[^/]+/[^/]+-ports\\.module\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'domain-is-plain',
      comment:
        "The domain imports nothing but the domain, the plain shared kernel (src/common), and another feature's published types (its application/ports/, as types only: docs/adr/0068).",
      severity: 'error',
      from: { path: '^src/[^/]+/domain/' },
      to: { pathNot: ['^src/[^/]+/domain/', '^src/common/', '^src/[^/]+/application/ports/'] },
    },
    {
      name: 'domain-takes-only-types-from-ports',
      comment:
        "A domain takes only types from another feature's ports (`import type`): nothing of them runs in it (docs/adr/0068).",
      severity: 'error',
      from: { path: '^src/[^/]+/domain/' },
      to: { path: '^src/[^/]+/application/ports/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'common-is-plain',
      comment: 'src/common is the shared kernel the domain may use: plain TypeScript only.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { pathNot: '^src/common/' },
    },
    {
      name: 'application-knows-no-adapters',
      comment: 'Use cases depend on ports, never on HTTP, persistence or framework adapters.',
      severity: 'error',
      from: { path: '^src/[^/]+/application/' },
      to: {
        path: [
          '^src/[^/]+/(http|infrastructure)/',
          '^src/platform/(config|database|http|observability)/',
          'node_modules/(typeorm|@nestjs/typeorm|fastify|@nestjs/platform-fastify|class-validator|@nestjs/swagger|pg|ioredis)/',
        ],
      },
    },
    {
      name: 'infrastructure-knows-no-http',
      severity: 'error',
      from: { path: '^src/[^/]+/infrastructure/' },
      to: { path: ['^src/[^/]+/http/', '^src/platform/http/'] },
    },
    {
      name: 'platform-knows-no-features',
      comment:
        'src/platform is what features stand on: features contribute to it, not the reverse.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/[^/]+/', pathNot: notAFeature },
    },
    {
      name: 'features-are-independent',
      comment:
        "A feature imports no other feature but its public ports (application/ports/, and the <feature>-ports module that binds them): what two share belongs in src/common or platform, and one feature's records change only through its own ports (docs/adr/0068).",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: notAFeature },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', notAFeature, ...publicPorts] },
    },
    {
      name: 'nothing-knows-webhooks',
      comment:
        'Events flow one way: features record them (src/platform/event-log), webhooks read them. Only the root module wires src/webhooks; nothing else imports it (docs/adr/0030).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/webhooks/', '^src/app\\.module\\.ts$'] },
      to: { path: '^src/webhooks/' },
    },
    {
      name: 'libs-never-import-src',
      comment: 'libs/ are reusable Nest libraries: they cannot depend on this application.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^src/' },
    },
    {
      name: 'libs-are-independent',
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/', pathNot: '^libs/$1/' },
    },
    {
      name: 'the-service-never-loads-libvips',
      comment:
        'sharp (libvips) is loaded only in the image worker processes (image-worker.ts, through image-pipeline.ts and sharp-library.ts) and by sample-photo.ts (benchmarks and tests): the service reads image headers without it, and its library and allocations stay out of the service (docs/adr/0063).',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot:
          '^src/photos/infrastructure/(image-worker|image-pipeline|sharp-library|sample-photo)\\.ts$',
      },
      to: {
        path: [
          '^node_modules/sharp/',
          '^src/photos/infrastructure/(image-pipeline|sharp-library)\\.ts$',
        ],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // test/layer-rules/fixtures breaks every rule on purpose, for the spec beside it.
    exclude: { path: '(^dist/|\\.spec\\.ts$|^test/layer-rules/fixtures/)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
  },
};
