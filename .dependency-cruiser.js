/**
 * The layer arrows of docs/architecture: a wrong import fails `npm run lint`.
 *   http, infrastructure ─▶ application ─▶ domain
 *   libs/* are imported by src/, never import src/, and do not import each other.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-plain',
      comment: 'The domain imports nothing but the domain (no Nest, no TypeORM, no validators).',
      severity: 'error',
      from: { path: '^src/[^/]+/domain/' },
      to: { pathNot: ['^src/[^/]+/domain/', '^src/common/'] },
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
      comment: 'Use cases depend on ports, never on HTTP or persistence adapters.',
      severity: 'error',
      from: { path: '^src/[^/]+/application/' },
      to: {
        path: [
          '^src/[^/]+/(http|infrastructure)/',
          '^src/(database|http)/',
          'node_modules/(typeorm|@nestjs/typeorm|fastify|@nestjs/platform-fastify|class-validator|@nestjs/swagger)/',
        ],
      },
    },
    {
      name: 'infrastructure-knows-no-http',
      severity: 'error',
      from: { path: '^src/[^/]+/infrastructure/' },
      to: { path: ['^src/[^/]+/http/', '^src/http/'] },
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
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.spec\\.ts$)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
  },
};
