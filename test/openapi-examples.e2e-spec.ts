import { ModulesContainer } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import { Scope, SCOPES } from '../src/common/scopes';
import { routeFactsOf, scopesOfRoute } from '../src/platform/http/route-facts/route-facts';
import { apiClient, request } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

type Parameter = {
  name: string;
  in: string;
  example?: unknown;
  examples?: unknown;
  schema?: { example?: unknown; examples?: unknown; default?: unknown };
};
type Example = { value: { code: string; message: string; status: number; docUrl: string } };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<
    string,
    {
      headers?: Record<string, { description?: string }>;
      content?: { 'application/json': { examples: Record<string, Example | { $ref: string }> } };
    }
  >;
};
type Document = { paths: Record<string, Record<string, Operation>> };

/**
 * The scopes each handler of the running application requires, by its operation id, from the
 * route facts on the handler (what the access guard reads), never from the document under test.
 */
function requiredScopesByOperation(modules: ModulesContainer): Map<string, readonly Scope[]> {
  const scopes = new Map<string, readonly Scope[]>();
  for (const { controllers } of modules.values()) {
    for (const { metatype } of controllers.values()) {
      if (!metatype) continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const key of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[key];
        if (key === 'constructor' || typeof handler !== 'function') continue;
        const declared = Reflect.getMetadata(DECORATORS.API_OPERATION, handler) as
          { operationId?: string } | undefined;
        const facts = routeFactsOf(handler);
        // The document names an operation by its handler's name unless @ApiOperation says otherwise.
        const required = scopesOfRoute(facts);
        if (required) scopes.set(declared?.operationId ?? key, required);
      }
    }
  }
  return scopes;
}

/**
 * The served document's examples, over every operation it declares (a new one is covered the day
 * it lands): CONTRACT.md "Fast feedback (v1.4)", the first hour, round 2.
 */
describe('the examples of the OpenAPI document: what the docs page shows and fills in', () => {
  let t: TestApp;
  let document: Document;
  let scopesOf: Map<string, readonly Scope[]>;
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: 'https://pets.example/v1' });
    document = (await request(t.url).get('/v1/openapi.json')).body;
    scopesOf = requiredScopesByOperation(t.app.get(ModulesContainer));
  });
  afterAll(() => t.close());

  it("gives each operation's 403 an example naming the scope its route requires", () => {
    const checked: string[] = [];
    for (const { operation } of operations()) {
      const { operationId, responses } = operation;
      const scopes = scopesOf.get(operationId) ?? [];
      const forbidden = responses['403'];
      if (scopes.length === 0) {
        // Any valid key (getOwnKey) or none (the photos' images): nothing to refuse for a scope.
        expect({ operationId, has403: forbidden !== undefined }).toEqual({
          operationId,
          has403: false,
        });
        continue;
      }
      const example = forbidden?.content?.['application/json'].examples.forbidden;
      // The first scope is the one to ask for: the guard names it (checkScope).
      expect({ operationId, example }).toEqual({
        operationId,
        example: {
          summary: `forbidden: without ${scopes[0]}`,
          value: {
            code: 'forbidden',
            message: `This API key lacks the scope ${scopes[0]}, which this operation needs.`,
            status: 403,
            requestId: expect.any(String),
            docUrl: 'https://pets.example/v1/docs/errors#forbidden',
          },
        },
      });
      expect({
        operationId,
        header: forbidden!.headers?.['WWW-Authenticate']?.description,
      }).toEqual({
        operationId,
        header: expect.stringContaining(`scope="${scopes[0]}"`),
      });
      checked.push(operationId);
    }
    // Every operation behind a scope: the five store ones and the catalogue's among them.
    expect(checked.length).toBeGreaterThanOrEqual(33);
    expect(new Set(checked).size).toBe(checked.length);
  });

  it('shows in each 403 example what the service answers a key without that scope', async () => {
    // A key holding one scope the operation does not accept, per operation; each asked once.
    const keys = new Map<Scope, ReturnType<typeof apiClient>>();
    const keyWithout = async (allowed: readonly Scope[]) => {
      const scope = SCOPES.find((candidate) => !allowed.includes(candidate))!;
      if (!keys.has(scope))
        keys.set(scope, apiClient(t.url, (await t.issueKey({ scopes: [scope] })).auth));
      return keys.get(scope)!;
    };
    for (const { path, method, operation } of operations()) {
      const scopes = scopesOf.get(operation.operationId) ?? [];
      if (scopes.length === 0) continue;
      const api = await keyWithout(scopes);
      // The scope is checked before the parameters and the body are read: any will do.
      const url = `/v1${path.replace(/\{[^}]+\}/g, '1')}`;
      const sent = api[method as 'get'](url);
      const response = await (operation.requestBody ? sent.send({}) : sent);
      const example = operation.responses['403'].content!['application/json'].examples
        .forbidden as Example;
      expect({
        operationId: operation.operationId,
        status: response.status,
        message: response.body.message,
      }).toEqual({
        operationId: operation.operationId,
        status: 403,
        message: example.value.message,
      });
      expect(response.headers['www-authenticate']).toBe(
        `Bearer error="insufficient_scope", scope="${scopes[0]}"`,
      );
    }
  });

  it('fills in no filter of listPets: none of its parameters carries an example', () => {
    const { parameters = [] } = document.paths['/pets'].get;
    expect(parameters.length).toBeGreaterThan(10);
    const withExamples = parameters
      .filter(
        ({ example, examples, schema }) =>
          example !== undefined ||
          examples !== undefined ||
          schema?.example !== undefined ||
          schema?.examples !== undefined,
      )
      .map(({ name }) => name);
    expect(withExamples).toEqual([]);
  });

  it('lists every animal when listPets is tried as the docs page fills it in', async () => {
    await resetDatabase(t.dataSource);
    const api = apiClient(t.url, t.auth);
    const ids: number[] = [];
    for (const name of ['Rex', 'Bella', 'Tom']) {
      ids.push((await api.post('/v1/pets').send({ name, categoryId: 1 }).expect(201)).body.id);
    }
    // What "Try it out" sends untouched: each query parameter's example, else its default.
    const query = Object.fromEntries(
      (document.paths['/pets'].get.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map(({ name, example, schema }) => [name, example ?? schema?.example ?? schema?.default])
        .filter(([, value]) => value !== undefined),
    );
    expect(query).toEqual({ limit: 20 });
    const listed = await api.get('/v1/pets').query(query);
    expect(listed.status).toBe(200);
    expect(listed.body.map(({ id }: { id: number }) => id)).toEqual(ids);
  });
});
