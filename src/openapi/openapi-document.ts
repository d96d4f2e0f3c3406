import { INestApplication, Type } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../platform/config/app-config';
import { COMPONENT_SCHEMAS_EXTENSION } from '../platform/http/response/api-named-array-response.decorator';
import { ROUTE_FACTS_EXTENSION, RouteFacts } from '../platform/http/route-facts/route-facts';
import { featureOf } from '../platform/features/feature';

type HeaderObject = { description: string; schema: Record<string, unknown> };
type ResponseObject = { headers?: Record<string, HeaderObject> };
type OperationObject = {
  description?: string;
  deprecated?: boolean;
  responses?: Record<string, ResponseObject>;
  requestBody?: { content?: Record<string, unknown> };
  security?: Record<string, string[]>[];
  [extension: `x-${string}`]: unknown;
};

const integerHeader = (description: string): HeaderObject => ({
  description,
  schema: { type: 'integer' },
});
const stringHeader = (description: string): HeaderObject => ({
  description,
  schema: { type: 'string' },
});

/** Headers of every response under /v1, whatever its status. */
const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': integerHeader(
    'The request limit of the window with the fewest requests left',
  ),
  'X-RateLimit-Remaining': integerHeader('Requests remaining in that window'),
  'X-RateLimit-Reset': integerHeader('Unix time, in whole seconds, at which that window ends'),
  'RateLimit-Policy': stringHeader(
    'Both windows (IETF draft): `"minute";q=60;w=60, "day";q=1000;w=86400`',
  ),
  RateLimit: stringHeader(
    'What is left of both windows (IETF draft): `"minute";r=59;t=42, "day";r=999;t=52000`',
  ),
};

const WWW_AUTHENTICATE = stringHeader(
  '`Bearer`, or `Bearer error="invalid_token"` when a key was given',
);

const INSUFFICIENT_SCOPE = stringHeader(
  'The scope to ask for (RFC 6750): `Bearer error="insufficient_scope", scope="orders:read"`',
);

const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before retrying',
  schema: { type: 'integer', minimum: 1 },
};

const operationsOf = (document: OpenAPIObject) =>
  Object.values(document.paths).flatMap((item) => Object.values(item) as OperationObject[]);

/**
 * Adds headers to every response of an operation for which `pick` gives some. Each response is
 * copied first: the generator shares one object between the operations of a controller.
 */
function addHeaders(
  operation: OperationObject,
  pick: (status: string) => Record<string, HeaderObject> | undefined,
): void {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const headers = pick(status);
    if (headers)
      operation.responses![status] = { ...response, headers: { ...response.headers, ...headers } };
  }
}

/**
 * Writes each operation's route facts (decorator metadata: src/platform/http/route-facts) in the
 * document's terms, with the configured sunsets: `deprecated`, `x-stability`,
 * `x-required-scopes`, their headers, and a sentence of description each.
 */
function describeRouteFacts(document: OpenAPIObject, config: AppConfig): void {
  for (const operation of operationsOf(document)) {
    const facts = operation[ROUTE_FACTS_EXTENSION] as RouteFacts | undefined;
    if (!facts) continue;
    delete operation[ROUTE_FACTS_EXTENSION];
    const { deprecation, stability, scopes, acceptsMergePatch, keylessBudget } = facts;
    const content = operation.requestBody?.content;
    if (acceptsMergePatch && content?.['application/json']) {
      content['application/merge-patch+json'] = content['application/json'];
    }
    if (deprecation) {
      const sunset = config.http.sunsets[deprecation.sunset];
      operation.deprecated = true;
      operation.description = [
        operation.description,
        `Deprecated since ${deprecation.since.slice(0, 10)}, removed at ${sunset.toISOString()}`,
        `(it answers 410 \`gone\` from then on): ${deprecation.instead}`,
      ]
        .filter(Boolean)
        .join(' ');
      addHeaders(operation, () => ({
        Deprecation: stringHeader(
          `Deprecated since ${deprecation.since} (RFC 9745): \`@${Date.parse(deprecation.since) / 1000}\``,
        ),
        Sunset: stringHeader(`Removal instant (RFC 8594): \`${sunset.toUTCString()}\``),
        Link: stringHeader(
          `The successor: \`<…${deprecation.successor}>; rel="successor-version"\``,
        ),
      }));
    }
    if (scopes) {
      operation['x-required-scopes'] = scopes;
      const [scope, ...alternatives] = scopes.map((name) => `\`${name}\``);
      operation.description = [
        operation.description,
        `Scope: ${scope}${alternatives.length ? ` (or ${alternatives.join(', ')})` : ''}.`,
      ]
        .filter(Boolean)
        .join(' ');
      addHeaders(operation, (status) =>
        status === '403' ? { 'WWW-Authenticate': INSUFFICIENT_SCOPE } : undefined,
      );
    }
    if (keylessBudget) {
      operation.security = [];
      operation.description = [
        operation.description,
        `No API key needed: counted per client address in the ${keylessBudget} budget, apart from the anonymous one.`,
      ]
        .filter(Boolean)
        .join(' ');
    }
    if (stability) {
      operation['x-stability'] = stability;
      operation.description =
        `${stability[0].toUpperCase()}${stability.slice(1)}: it may still change. ${operation.description ?? ''}`.trim();
      addHeaders(operation, () => ({
        'X-API-Stability': stringHeader(`The operation's stability: \`${stability}\``),
      }));
    }
  }
}

/** Moves the named schemas operations carry (ApiNamedArrayResponse) into the components. */
function collectComponentSchemas(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    const schemas = operation[COMPONENT_SCHEMAS_EXTENSION] as Record<string, object> | undefined;
    if (!schemas) continue;
    delete operation[COMPONENT_SCHEMAS_EXTENSION];
    document.components = {
      ...document.components,
      schemas: { ...document.components?.schemas, ...schemas },
    };
  }
}

/**
 * The OpenAPI 3 document of the public API, generated from the code of the modules given (the
 * features: the application's wiring says which).
 */
export function createOpenApiDocument(
  app: INestApplication,
  config: AppConfig,
  include: Type[],
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Adoption Service')
    .setDescription(
      'JSON over HTTP interface for a pet store: list, add and fetch animals, and adopt them ' +
        'through orders. Every operation requires an API key sent as a bearer token, carrying ' +
        'the scope the operation names.',
    )
    .setVersion('1.0.0')
    .addServer(config.http.publicBaseUrl, 'Production')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'API key: `Authorization: Bearer <API_KEY>`',
    });
  // Each feature names its own tag (@Feature): a new feature needs no edit here. Two features may
  // share one (the event feed and its webhooks): it is listed once.
  const tags = new Set<string>();
  for (const { tag } of include.map(featureOf).filter((feature) => feature !== undefined)) {
    if (!tags.has(tag.name)) builder.addTag(tag.name, tag.description);
    tags.add(tag.name);
  }
  if (config.http.stagingBaseUrl) builder.addServer(config.http.stagingBaseUrl, 'Staging');

  const document = SwaggerModule.createDocument(app, builder.build(), {
    include,
    operationIdFactory: (_controller, method) => method,
  });

  // Paths are written relative to the servers, which already end in /v1.
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [path.replace(/^\/v1/, ''), item]),
  );
  for (const operation of operationsOf(document)) {
    addHeaders(operation, (status) => ({
      ...RATE_LIMIT_HEADERS,
      ...(status === '401' ? { 'WWW-Authenticate': WWW_AUTHENTICATE } : {}),
      ...(status === '429' || status === '503' ? { 'Retry-After': RETRY_AFTER } : {}),
    }));
  }
  describeRouteFacts(document, config);
  collectComponentSchemas(document);
  return document;
}

/** The admin API's own document: it sits outside /v1 and takes ADMIN_TOKEN, not an API key. */
export function createAdminOpenApiDocument(
  app: INestApplication,
  config: AppConfig,
  include: Type[],
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Adoption Service: admin API')
    .setDescription(
      'Issue, list and revoke API keys, and lift temporary bans. Requires `Authorization: Bearer <ADMIN_TOKEN>`.',
    )
    .setVersion('1.0.0')
    .addServer(new URL(config.http.publicBaseUrl).origin)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'admin')
    .addTag('admin', 'API keys and bans');
  return SwaggerModule.createDocument(app, builder.build(), {
    include,
    operationIdFactory: (_controller, method) => method,
  });
}
