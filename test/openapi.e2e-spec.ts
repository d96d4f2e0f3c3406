import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModulesContainer } from '@nestjs/core';
import { PATH_METADATA } from '@nestjs/common/constants';
import { SCOPES } from '../src/common/scopes';
import { ERROR_CODES, ErrorCode } from '../src/common/error-codes';
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

describe('the OpenAPI document and the health endpoints', () => {
  let t: TestApp;
  let document: {
    openapi: string;
    info: { version: string };
    servers: { url: string }[];
    paths: Record<string, Record<string, Operation>>;
    components: {
      securitySchemes: Record<string, { type: string; scheme: string }>;
      schemas: Record<string, ErrorSchema>;
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

  it('describes version 1.0.0 of the interface on the configured servers', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers.map((s) => s.url)).toEqual([
      'https://pets.example/v1',
      'https://staging.pets.example/v1',
    ]);
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
    const catalogue = [
      ['/pets/{petId}', 'patch', 'updatePet', 'animals', 'pets:write'],
      ['/pets/{petId}', 'delete', 'deletePet', 'animals', 'pets:write'],
      ['/categories', 'get', 'listCategories', 'categories', 'pets:read'],
      ['/categories/{categoryId}', 'put', 'putCategory', 'categories', 'pets:write'],
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

  it('states the scopes of every operation: none is left open to any key', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, o] of Object.entries(item)) {
        if (isKeyless(o)) continue;
        expect({ operation: `${method} ${path}`, scopes: o['x-required-scopes'] }).toEqual({
          operation: `${method} ${path}`,
          scopes: expect.arrayContaining([
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

  it('marks getPet deprecated, with its headers on every response', () => {
    const getPet = operation('/pets/{petId}', 'get');
    expect(getPet.deprecated).toBe(true);
    expect(Object.keys(getPet.responses).sort()).toEqual([
      '200',
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

  it('declares the rate-limit headers on every response, WWW-Authenticate on 401', () => {
    for (const item of Object.values(document.paths)) {
      for (const o of Object.values(item)) {
        for (const response of Object.values(o.responses)) {
          expect(Object.keys(response.headers ?? {})).toEqual(
            expect.arrayContaining([
              'X-RateLimit-Limit',
              'X-RateLimit-Remaining',
              'X-RateLimit-Reset',
              'RateLimit-Policy',
              'RateLimit',
            ]),
          );
        }
        if (!isKeyless(o)) expect(o.responses['401'].headers).toHaveProperty('WWW-Authenticate');
      }
    }
  });

  it("has every public feature's routes and nothing else (no admin API, no vanished feature)", () => {
    // What the running application serves under /v1/…, found from its controllers rather than
    // listed: a feature imported without @Feature would serve routes the document lacks.
    const prefixes = [...t.app.get(ModulesContainer).values()]
      .flatMap((module) => [...module.controllers.values()].map(({ metatype }) => metatype))
      .flatMap((controller) => (controller ? [Reflect.getMetadata(PATH_METADATA, controller)] : []))
      .filter((path) => /^\/?v1\/./.test(path))
      .map((path) => path.replace(/^\/?v1/, ''));
    expect(prefixes.length).toBeGreaterThan(0);
    const paths = Object.keys(document.paths);
    for (const prefix of prefixes) {
      expect({ prefix, paths: paths.filter((path) => path.startsWith(prefix)) }).toEqual({
        prefix,
        paths: expect.arrayContaining([expect.any(String)]),
      });
    }
    expect(paths.filter((path) => !prefixes.some((prefix) => path.startsWith(prefix)))).toEqual([]);
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

  it('matches the committed openapi.json apart from the servers', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
    expect({ ...document, servers: committed.servers }).toEqual(committed);
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
    });
  });
});
