import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModulesContainer } from '@nestjs/core';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod, Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { PUBLIC_API_MODULES } from '../src/app.module';
import { featureOf } from '../src/platform/features/feature';
import { SCOPES } from '../src/common/scopes';
import { ERROR_CODES, ErrorCode } from '../src/common/error-codes';
import { declaredEventTypes, inFeed } from '../src/common/events/event-types';
import { request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

type Operation = {
  operationId: string;
  tags: string[];
  security: unknown[];
  deprecated?: boolean;
  description?: string;
  requestBody?: { content: Record<string, unknown> };
  'x-stability'?: string;
  'x-required-scopes'?: string[];
  responses: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: unknown }
  >;
};
type ErrorSchema = { properties: { code: { enum?: string[] } }; enum?: string[] };

/**
 * Every route the application's controllers serve (`GET /v1/pets/{petId}`: path parameters as the
 * document writes them), with the module whose controller serves it.
 */
function servedRoutes(
  modules: ModulesContainer,
): { route: string; path: string; module: Type; excluded: boolean }[] {
  const asList = (value: string | string[] | undefined) =>
    value === undefined ? [''] : Array.isArray(value) ? value : [value];
  const join = (...parts: string[]) =>
    '/' +
    parts
      .flatMap((part) => part.split('/'))
      .filter(Boolean)
      .map((segment) => segment.replace(/^:(\w+)$/, '{$1}'))
      .join('/');
  return [...modules.values()].flatMap(({ metatype: module, controllers }) =>
    [...controllers.values()].flatMap(({ metatype: controller }) => {
      if (!controller) return [];
      const prototype = controller.prototype as Record<string, unknown>;
      return asList(Reflect.getMetadata(PATH_METADATA, controller)).flatMap((prefix) =>
        Object.getOwnPropertyNames(prototype).flatMap((key) => {
          const handler = prototype[key];
          if (key === 'constructor' || typeof handler !== 'function') return [];
          const method: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, handler);
          if (method === undefined) return [];
          const excluded =
            Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)?.[0] === true ||
            Reflect.getMetadata(DECORATORS.API_EXCLUDE_ENDPOINT, handler)?.disable === true;
          return asList(Reflect.getMetadata(PATH_METADATA, handler)).map((sub) => {
            const path = join(prefix, sub);
            const route = `${RequestMethod[method]} ${path}`;
            return { route, path, module: module as Type, excluded };
          });
        }),
      );
    }),
  );
}

describe('the OpenAPI document and the health endpoints', () => {
  let t: TestApp;
  let document: {
    openapi: string;
    info: { version: string; description: string };
    servers: { url: string; description?: string }[];
    tags: { name: string; description: string }[];
    paths: Record<string, Record<string, Operation>>;
    components: {
      securitySchemes: Record<string, { type: string; scheme: string }>;
      schemas: Record<string, ErrorSchema>;
      headers: Record<string, { description: string; schema: object }>;
    };
  };

  beforeAll(async () => {
    t = await startTestApp({
      PUBLIC_BASE_URL: 'https://pets.example/v1',
      STAGING_BASE_URL: 'https://staging.pets.example/v1',
      ADMIN_TOKEN: 'openapi-suite-admin-token-0123456789abcdef',
    });
    const response = await request(t.url).get('/v1/openapi.json');
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(() => t.close());

  const operation = (path: string, method: string) => document.paths[path][method];

  it('resolves every reference it makes to a schema, an example or a header of its own', () => {
    const unresolved: string[] = [];
    JSON.stringify(document, (key, value) => {
      if (key === '$ref' && typeof value === 'string') {
        const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(value) ?? [];
        const components = document.components as unknown as Record<string, object | undefined>;
        if (!section || !(name in (components[section] ?? {}))) unresolved.push(value);
      }
      return value;
    });
    expect(unresolved).toEqual([]);
  });

  it('describes version 1.0.0 of the interface on the configured servers', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers).toEqual([
      { url: 'https://pets.example/v1', description: 'This instance (PUBLIC_BASE_URL)' },
      { url: 'https://staging.pets.example/v1', description: 'Staging (STAGING_BASE_URL)' },
    ]);
  });

  it('names every tag in its description, with what it is for, and links the errors page', () => {
    expect(document.tags.length).toBeGreaterThanOrEqual(4);
    for (const { name, description } of document.tags) {
      expect(document.info.description).toContain(`- **${name}**: ${description}`);
    }
    expect(document.info.description).toContain('(https://pets.example/v1/docs/errors)');
  });

  it("gives each error response an example of each of its codes, that code's own body, shared but forbidden's", () => {
    const shared = (
      document.components as unknown as { examples: Record<string, { value: object }> }
    ).examples;
    const shownAt: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, o] of Object.entries(item)) {
        for (const [status, response] of Object.entries(o.responses)) {
          if (Number(status) < 400) continue;
          const codes = [...(response.description ?? '').matchAll(/`([a-z_]+)`: /g)].map(
            ([, code]) => code,
          );
          const content = response.content as {
            'application/json': { examples: Record<string, { $ref: string }> };
          };
          const at = `${method} ${path} ${status}`;
          // `forbidden` names the operation's own scope: its example is the operation's own
          // (test/openapi-examples.e2e-spec.ts).
          expect({ at, examples: content['application/json'].examples }).toEqual({
            at,
            examples: Object.fromEntries(
              codes.map((code) => [
                code,
                code === 'forbidden'
                  ? { summary: expect.any(String), value: expect.objectContaining({ code }) }
                  : { $ref: `#/components/examples/${code}` },
              ]),
            ),
          });
          shownAt.push(...codes.filter((code) => code !== 'forbidden'));
          // Each code under the response of its own status: an example never contradicts it.
          for (const code of codes) {
            expect({ at, code, status: ERROR_CODES[code as ErrorCode].status }).toEqual({
              at,
              code,
              status: Number(status),
            });
          }
        }
      }
    }
    expect(shownAt.length).toBeGreaterThan(100);
    expect(Object.keys(shared).sort()).toEqual([...new Set(shownAt)].sort());
    for (const [code, { value }] of Object.entries(shared)) {
      expect(value).toEqual({
        code,
        message: expect.any(String),
        status: ERROR_CODES[code as ErrorCode].status,
        ...(code === 'validation_failed' ? { details: expect.any(Array) } : {}),
        requestId: expect.any(String),
        docUrl: `https://pets.example/v1/docs/errors#${code}`,
      });
    }
  });

  it('has the three operations, tagged animals, each behind the bearer scheme', () => {
    const operations = [
      operation('/pets', 'get'),
      operation('/pets', 'post'),
      operation('/pets/{petId}', 'get'),
    ];
    expect(operations.map((o) => o.operationId)).toEqual(['listPets', 'createPet', 'getPet']);
    for (const o of operations) {
      expect(o.tags).toEqual(['animals']);
      expect(o.security).toEqual([{ bearer: [] }]);
    }
    expect(document.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('has the five store operations, tagged store, beta, each stating its scopes', () => {
    const store = [
      [operation('/store/orders', 'post'), 'placeOrder', ['orders:write']],
      [operation('/store/orders', 'get'), 'listOrders', ['orders:read', 'orders:manage']],
      [operation('/store/orders/{orderId}', 'get'), 'getOrder', ['orders:read', 'orders:manage']],
      [
        operation('/store/orders/{orderId}', 'patch'),
        'updateOrder',
        ['orders:write', 'orders:manage'],
      ],
      [operation('/store/inventory', 'get'), 'getInventory', ['pets:read']],
    ] as const;
    for (const [o, id, scopes] of store) {
      expect(o.operationId).toBe(id);
      expect(o.tags).toEqual(['store']);
      expect(o['x-stability']).toBe('beta');
      expect(o['x-required-scopes']).toEqual(scopes);
      expect(o.description).toContain(`Scope: \`${scopes[0]}\``);
      expect(o.responses['403'].headers).toHaveProperty('WWW-Authenticate');
      for (const response of Object.values(o.responses)) {
        expect(response.headers ?? {}).toHaveProperty('X-API-Stability');
      }
    }
    for (const [path, method, scope] of [
      ['/pets', 'get', 'pets:read'],
      ['/pets', 'post', 'pets:write'],
      ['/pets/{petId}', 'get', 'pets:read'],
    ]) {
      expect(operation(path, method)['x-required-scopes']).toEqual([scope]);
      expect(operation(path, method)['x-stability']).toBeUndefined();
    }
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Order', 'NewOrder', 'OrderStatus', 'Inventory']),
    );
    expect(document.components.schemas.OrderStatus).toMatchObject({
      enum: ['placed', 'approved', 'delivered', 'cancelled'],
    });
    expect(Object.keys(operation('/store/orders/{orderId}', 'patch').requestBody!.content)).toEqual(
      ['application/json', 'application/merge-patch+json'],
    );
  });

  it('has the four catalogue operations, beta, tagged animals or categories, each with its scope', () => {
    // v1.3: correcting, removing and naming are the staff's (pets:manage); pets:write only creates.
    const catalogue = [
      ['/pets/{petId}', 'patch', 'updatePet', 'animals', 'pets:manage'],
      ['/pets/{petId}', 'delete', 'deletePet', 'animals', 'pets:manage'],
      ['/categories', 'get', 'listCategories', 'categories', 'pets:read'],
      ['/categories/{categoryId}', 'put', 'putCategory', 'categories', 'pets:manage'],
    ] as const;
    for (const [path, method, id, tag, scope] of catalogue) {
      const o = operation(path, method);
      expect(o.operationId).toBe(id);
      expect(o.tags).toEqual([tag]);
      expect(o['x-stability']).toBe('beta');
      expect(o['x-required-scopes']).toEqual([scope]);
      for (const response of Object.values(o.responses)) {
        expect(response.headers ?? {}).toHaveProperty('X-API-Stability');
      }
    }
    const update = operation('/pets/{petId}', 'patch') as Operation & {
      parameters: { name: string; in: string }[];
    };
    expect(Object.keys(update.requestBody!.content)).toEqual([
      'application/json',
      'application/merge-patch+json',
    ]);
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(['409', '412']));
    for (const [path, method] of [
      ['/pets/{petId}', 'patch'],
      ['/pets/{petId}', 'delete'],
    ]) {
      const parameters = (operation(path, method) as typeof update).parameters;
      expect(parameters).toContainEqual(
        expect.objectContaining({ name: 'If-Match', in: 'header' }),
      );
    }
    for (const [path, method, status] of [
      ['/pets', 'post', '201'],
      ['/pets/{petId}', 'get', '200'],
      ['/pets/{petId}', 'patch', '200'],
    ]) {
      expect(operation(path, method).responses[status].headers).toHaveProperty('ETag');
    }
    expect(Object.keys(operation('/categories/{categoryId}', 'put').responses)).toEqual(
      expect.arrayContaining(['200', '201', '409']),
    );
    const schemas = document.components.schemas as unknown as Record<
      string,
      { required?: string[]; properties: Record<string, { readOnly?: boolean }> }
    >;
    expect(schemas.Category.required).toEqual(['id', 'name']);
    expect(schemas.Pet.required).toEqual(
      expect.arrayContaining(['version', 'createdAt', 'updatedAt']),
    );
    for (const field of ['version', 'createdAt', 'updatedAt']) {
      expect(schemas.Pet.properties[field].readOnly).toBe(true);
    }
  });

  /** The operations that need no key: public pixels, each counted in a budget of its own. */
  const isKeyless = (o: Operation) => Array.isArray(o.security) && o.security.length === 0;

  it('states the scopes of every operation: none is left open to any key but by its own say', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, o] of Object.entries(item)) {
        if (isKeyless(o)) continue;
        expect({ operation: `${method} ${path}`, scopes: o['x-required-scopes'] }).toEqual({
          operation: `${method} ${path}`,
          // A key asking about itself is the one operation any valid key may call (@AnyValidKey).
          scopes:
            o.operationId === 'getOwnKey'
              ? []
              : expect.arrayContaining([
                  expect.stringMatching(new RegExp(`^(${SCOPES.join('|')})$`)),
                ]),
        });
      }
    }
  });

  it('marks the image GETs, and nothing else, as needing no key, with their own budget', () => {
    const keyless = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, o]) => isKeyless(o))
        .map(([method, o]) => [method, path, o] as const),
    );
    expect(keyless.map(([method, path]) => `${method} ${path}`)).toEqual(['get /photos/{file}']);
    for (const [, , o] of keyless) {
      expect(o.operationId).toBe('getPhotoImage');
      expect(o.tags).toEqual(['photos']);
      expect(o['x-required-scopes']).toBeUndefined();
      expect(o.responses).not.toHaveProperty('401');
      expect(o.responses).not.toHaveProperty('403');
      expect(o.description).toMatch(
        /No API key needed: counted per client address in the photo GETs budget/,
      );
      expect(Object.keys(o.responses['200'].content as object)).toEqual([
        'image/jpeg',
        'image/webp',
        'image/png',
      ]);
      expect(o.responses['200'].headers).toHaveProperty('ETag');
      expect(o.responses['304'].headers).toHaveProperty('Cache-Control');
    }
  });

  it('declares the conditional reads: If-None-Match, the ETag of their 200 and a 304 not counted', () => {
    const conditional = Object.values(document.paths).flatMap((item) =>
      Object.values(item).filter((o) => o.responses['304'] && !isKeyless(o)),
    );
    expect(conditional.map((o) => o.operationId).sort()).toEqual([
      'getOrganization',
      'getPet',
      'listCategories',
      'listOrganizations',
      'listPets',
    ]);
    for (const o of conditional) {
      const { parameters } = o as Operation & { parameters: { name: string; in: string }[] };
      expect(parameters).toContainEqual(
        expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
      );
      expect(o.responses['200'].headers).toHaveProperty('ETag');
      expect(o.responses['304'].headers).toHaveProperty('ETag');
      expect(o.responses['304']).not.toHaveProperty('content');
      expect(o.description).toMatch(/a 304 is not counted against the rate limits/);
      // In the order of their status: the 304 after the 200, before the errors.
      const statuses = Object.keys(o.responses);
      expect(statuses).toEqual([...statuses].sort());
    }
    // getPet's ETag is its version, as for If-Match.
    expect(operation('/pets/{petId}', 'get').responses['304'].headers!.ETag).toEqual(
      operation('/pets/{petId}', 'patch').responses['200'].headers!.ETag,
    );
  });

  it('marks getPet deprecated, with its headers on every response', () => {
    const getPet = operation('/pets/{petId}', 'get');
    expect(getPet.deprecated).toBe(true);
    expect(Object.keys(getPet.responses).sort()).toEqual([
      '200',
      '304',
      '400',
      '401',
      '403',
      '404',
      '410',
      '429',
      '500',
      '503',
    ]);
    for (const response of Object.values(getPet.responses)) {
      expect(Object.keys(response.headers ?? {})).toEqual(
        expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
      );
    }
    for (const o of [operation('/pets', 'get'), operation('/pets', 'post')]) {
      expect(o.deprecated).toBeUndefined();
      for (const response of Object.values(o.responses)) {
        expect(response.headers ?? {}).not.toHaveProperty('Deprecation');
      }
    }
  });

  it('declares the rate-limit headers on every response, WWW-Authenticate on 401, once each as shared components', () => {
    const rateLimitHeaders = [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
    ];
    const reference = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const item of Object.values(document.paths)) {
      for (const o of Object.values(item)) {
        for (const response of Object.values(o.responses)) {
          expect(response.headers).toMatchObject(
            Object.fromEntries(rateLimitHeaders.map((name) => [name, reference(name)])),
          );
        }
        if (!isKeyless(o)) {
          expect(o.responses['401'].headers).toMatchObject({
            'WWW-Authenticate': reference('WWW-Authenticate'),
          });
        }
        for (const status of ['429', '503']) {
          expect(o.responses[status]?.headers ?? {}).toMatchObject(
            o.responses[status] ? { 'Retry-After': reference('Retry-After') } : {},
          );
        }
      }
    }
    const shared = document.components.headers;
    for (const name of [...rateLimitHeaders, 'WWW-Authenticate', 'Retry-After']) {
      expect(shared[name]).toEqual({ description: expect.any(String), schema: expect.any(Object) });
    }
    expect(shared['RateLimit-Policy'].description).toContain(
      '"minute";q=60;w=60, "day";q=1000;w=86400',
    );
    expect(shared.RateLimit.description).toContain('"minute";r=59;t=42`');
  });

  it("has every public feature's routes and nothing else (no admin API, no vanished feature)", () => {
    // What the running application serves under /v1/…, route by route, found from its
    // controllers rather than listed, in the document's spelling (`:petId` is `{petId}`).
    // The platform's own routes kept out of the document on purpose (the unrouted paths' 404)
    // are no feature's; a feature's excluded route is reported below.
    const served = servedRoutes(t.app.get(ModulesContainer)).filter(
      ({ path, module, excluded }) => path.startsWith('/v1/') && (featureOf(module) || !excluded),
    );
    expect(served.length).toBeGreaterThan(20);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} /v1${path}`),
    );
    const publicModules = new Set<unknown>(PUBLIC_API_MODULES);
    // Each route the document lacks, with why: the cause is in the module that serves it.
    const undocumented = served
      .filter(({ route }) => !documented.includes(route))
      .map(({ route, module, excluded }) => ({
        route,
        cause: excluded
          ? `${module.name} keeps it out of the document (@ApiExcludeController or @ApiExcludeEndpoint)`
          : !featureOf(module)
            ? `${module.name} serves it but is not marked @Feature (src/platform/features/feature.ts)`
            : !publicModules.has(module)
              ? `${module.name} is a @Feature imported elsewhere than FEATURES in src/app.module.ts`
              : `${module.name} is a listed @Feature, yet the document lacks the route`,
      }));
    expect(undocumented).toEqual([]);
    const routes = served.map(({ route }) => route);
    expect(
      documented
        .filter((route) => !routes.includes(route))
        .map((route) => ({ route, cause: 'documented, but no public feature serves it' })),
    ).toEqual([]);
  });

  it("reads the routes of nested controllers in the document's spelling", () => {
    // The rule above would pass vacuously if `:param` routes were never compared: one is served.
    const nested = servedRoutes(t.app.get(ModulesContainer)).find(({ route }) =>
      route.includes('/{petId}'),
    );
    expect(nested?.route).toMatch(/^[A-Z]+ \/v1\/pets\/\{petId\}/);
  });

  it('documents the statuses of each operation, Location, Link and Retry-After', () => {
    const create = operation('/pets', 'post');
    expect(Object.keys(create.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(create.responses['201'].headers).toHaveProperty('Location');
    expect(operation('/pets', 'get').responses['200'].headers).toHaveProperty('Link');
    expect(create.responses['429'].headers).toHaveProperty('Retry-After');
  });

  it('lists every catalogued error code in the Error schema, and each code a response carries', async () => {
    const errorSchema = Object.values(document.components.schemas).find(
      (schema) => schema.properties?.code?.enum,
    );
    expect(errorSchema?.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
    // Every code an operation may answer is documented on the response of its status.
    const admin = (await request(t.url).get('/admin/openapi.json')).body;
    for (const doc of [document, admin]) {
      for (const item of Object.values(doc.paths as Record<string, Record<string, Operation>>)) {
        for (const o of Object.values(item)) {
          for (const [status, response] of Object.entries(o.responses)) {
            for (const [, code] of (response.description ?? '').matchAll(/`([a-z_]+)`: /g)) {
              expect({ code, status: Number(status) }).toEqual({
                code,
                status: ERROR_CODES[code as ErrorCode]?.status,
              });
            }
          }
        }
      }
    }
  });

  it('names every event type the features declared, each with its meaning, wherever a type is named', () => {
    const schemas = document.components.schemas as unknown as Record<
      string,
      { enum: string[]; description: string }
    >;
    const feed = declaredEventTypes().filter(inFeed);
    expect(schemas.EventType.enum).toEqual(declaredEventTypes().map(({ name }) => name));
    expect(schemas.FeedEventType.enum).toEqual(feed.map(({ name }) => name));
    expect(schemas.Subscription.enum).toEqual([...feed.map(({ name }) => name), '*']);
    for (const { name, description } of declaredEventTypes()) {
      expect(schemas.EventType.description).toContain(`\`${name}\`: ${description}`);
    }
  });

  it('describes the Error body: code, message and status always; details, requestId and docUrl when given', () => {
    const schemas = document.components.schemas as unknown as Record<
      string,
      { required?: string[]; properties: Record<string, Record<string, unknown>> }
    >;
    const error = schemas.Error;
    expect(error.required).toEqual(['code', 'message', 'status']);
    expect(error.properties).toMatchObject({
      details: { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } },
      requestId: { type: 'string' },
      docUrl: { type: 'string', format: 'uri' },
    });
    expect(schemas.ErrorDetail.required).toEqual(['field', 'issue', 'message']);
    expect(schemas.ErrorDetail.properties.issue.enum).toEqual([
      'required',
      'unknown_field',
      'type',
      'range',
      'format',
      'enum',
    ]);
  });

  it('matches the committed openapi.json apart from the servers and the base of its links', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
    const rebased = JSON.parse(
      JSON.stringify(document).replaceAll('https://pets.example/v1', committed.servers[0].url),
    );
    expect({ ...rebased, servers: committed.servers }).toEqual(committed);
  });

  it('serves the interactive documentation page', async () => {
    const response = await request(t.url).get('/v1/docs');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });

  it('reports liveness and readiness without a key', async () => {
    expect((await request(t.url).get('/health/live')).body).toEqual({ status: 'ok' });
    expect((await request(t.url).get('/health/ready')).body).toEqual({
      status: 'ok',
      checks: { database: 'up', redis: process.env.REDIS_URL ? 'up' : 'memory' },
      // The test environment's WEBHOOK_SECRETS_KEY (worker-environment.ts); without one, with
      // DATABASE_URL set, `plaintext` (test/secrets-at-rest.e2e-spec.ts).
      webhookSecrets: 'encrypted',
    });
  });
});
