import { INestApplication, Type } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../platform/config/app-config';
import { COMPONENT_SCHEMAS_EXTENSION } from '../platform/http/response/api-named-array-response.decorator';
import {
  ROUTE_FACTS_EXTENSION,
  RouteFacts,
  scopesOfRoute,
} from '../platform/http/route-facts/route-facts';
import {
  errorExample,
  PUBLIC_BASE_URL_PLACEHOLDER,
} from '../platform/http/errors/api-error-responses.decorator';
import { ERROR_PAGE_PATH } from '../platform/http/errors/error-documentation';
import { ErrorCode, isErrorCode } from '../common/error-codes';
import { InsufficientScopeError, Scope } from '../common/scopes';
import { featureOf } from '../platform/features/feature';
import { declaredEnumsOf } from '../platform/http/response/declared-enum';
import { API_NAME, API_VERSION } from '../platform/http/api-index/api-index';

type HeaderObject = { description: string; schema: Record<string, unknown> };
type HeaderReference = { $ref: string };
type ResponseObject = {
  description?: string;
  headers?: Record<string, HeaderObject | HeaderReference>;
};
type OperationObject = {
  description?: string;
  deprecated?: boolean;
  responses?: Record<string, ResponseObject>;
  requestBody?: { content?: Record<string, unknown> };
  security?: Record<string, string[]>[];
  parameters?: object[];
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
    'The request limit of the window with the fewest requests left (on a tie, the one ending later)',
  ),
  'X-RateLimit-Remaining': integerHeader('Requests remaining in that window'),
  'X-RateLimit-Reset': integerHeader('Unix time, in whole seconds, at which that window ends'),
  'RateLimit-Policy': stringHeader(
    'Both windows (draft-ietf-httpapi-ratelimit-headers-11), `q` requests per `w` seconds: `"minute";q=60;w=60, "day";q=1000;w=86400`',
  ),
  RateLimit: stringHeader(
    'The window `X-RateLimit-*` describes (draft-ietf-httpapi-ratelimit-headers-11): `r` requests left, `t` seconds until it ends: `"minute";r=59;t=42`',
  ),
};

const WWW_AUTHENTICATE = stringHeader(
  '`Bearer`, or `Bearer error="invalid_token"` when a key was given',
);

/** The 403's `WWW-Authenticate`, naming the scope the operation asks for. */
const insufficientScope = (scope: Scope) =>
  stringHeader(
    `The scope to ask for (RFC 6750): \`Bearer error="insufficient_scope", scope="${scope}"\``,
  );

/**
 * The codes whose example differs from one operation to another, written in each operation's
 * responses rather than shared: `forbidden` names the operation's own scope.
 */
const OWN_EXAMPLES: ReadonlySet<ErrorCode> = new Set(['forbidden']);

const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before retrying',
  schema: { type: 'integer', minimum: 1 },
};

/**
 * Headers many responses carry, written once in `components.headers` and referenced: the
 * rate-limit headers are on every response of every operation.
 */
const SHARED_HEADERS: Record<string, HeaderObject> = {
  ...RATE_LIMIT_HEADERS,
  'WWW-Authenticate': WWW_AUTHENTICATE,
  'Retry-After': RETRY_AFTER,
};
const shared = (name: keyof typeof SHARED_HEADERS): HeaderReference => ({
  $ref: `#/components/headers/${name}`,
});
const RATE_LIMIT_HEADER_REFERENCES = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, shared(name)]),
);

const operationsOf = (document: OpenAPIObject) =>
  Object.values(document.paths).flatMap((item) => Object.values(item) as OperationObject[]);

/**
 * Adds headers to every response of an operation for which `pick` gives some. Each response is
 * copied first: the generator shares one object between the operations of a controller.
 */
function addHeaders(
  operation: OperationObject,
  pick: (status: string) => Record<string, HeaderObject | HeaderReference> | undefined,
): void {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const headers = pick(status);
    if (headers)
      operation.responses![status] = { ...response, headers: { ...response.headers, ...headers } };
  }
}

/** The ETag of a listing's 200: a hash, since a page has no version. */
const LISTING_ETAG = stringHeader(
  'A strong entity tag of this answer (a hash of its body and `Link`): send it back in `If-None-Match` to be answered 304 while it is unchanged',
);

/**
 * A conditional read (`@ConditionalRead()`): `If-None-Match`, the 200's ETag (its own, a
 * version's, when the operation declares one) and the 304, with the rate-limit headers of every
 * response; the 304 is placed after the 200, the responses staying in the order of their status.
 */
function describeConditionalRead(operation: OperationObject): void {
  const responses = operation.responses!;
  const etag = responses['200'].headers?.ETag ?? LISTING_ETAG;
  addHeaders(operation, (status) => (status === '200' ? { ETag: etag } : undefined));
  responses['304'] = {
    description:
      '`If-None-Match` names the current ETag: the copy held is current. No body; not counted against the rate limits',
    headers: { ETag: etag, ...RATE_LIMIT_HEADER_REFERENCES },
  };
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
  );
  operation.parameters = [
    ...(operation.parameters ?? []),
    {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description:
        'ETags of copies held (`"…"`, `W/"…"`, a comma-separated list, or `*`): when one is the current one the answer is 304 without a body, not counted against the rate limits (a valid key is still needed)',
      schema: { type: 'string' },
    },
  ];
  operation.description = [
    operation.description,
    'Conditional: send the `ETag` back in `If-None-Match`; a 304 is not counted against the rate limits.',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The 403's `forbidden` example as the operation answers it: naming the scope it asks for (the
 * first of its scopes, as the access guard does). One example shared by every operation named
 * `orders:manage` in 28 of 33 of them, and sent readers to ask for the wrong scope.
 */
function nameOwnScope(operation: OperationObject, scope: Scope): void {
  type Content = Record<string, { examples?: Record<string, unknown> }>;
  const response = operation.responses?.['403'] as
    (ResponseObject & { content?: Content }) | undefined;
  const json = response?.content?.['application/json'];
  if (!response || !json?.examples?.forbidden) return;
  // Copied: the generator shares one response object between the operations of a controller.
  operation.responses!['403'] = {
    ...response,
    content: {
      ...response.content,
      'application/json': {
        ...json,
        examples: {
          ...json.examples,
          forbidden: {
            summary: `forbidden: without ${scope}`,
            value: {
              ...errorExample('forbidden'),
              message: new InsufficientScopeError(scope).message,
            },
          },
        },
      },
    },
  } as ResponseObject;
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
    const { deprecation, stability, acceptsMergePatch, uncounted, keylessBudget } = facts;
    const scopes = scopesOfRoute(facts);
    if (facts.describedBy) {
      operation.description = [operation.description, facts.describedBy()]
        .filter(Boolean)
        .join(' ');
    }
    // First: the headers of the facts below go on its 304 too.
    if (facts.conditionalRead) describeConditionalRead(operation);
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
    if (scopes?.length === 0) {
      operation['x-required-scopes'] = scopes;
      operation.description = [operation.description, 'Any valid key, whatever its scopes.']
        .filter(Boolean)
        .join(' ');
    } else if (scopes) {
      operation['x-required-scopes'] = scopes;
      const [scope, ...alternatives] = scopes.map((name) => `\`${name}\``);
      operation.description = [
        operation.description,
        `Scope: ${scope}${alternatives.length ? ` (or ${alternatives.join(', ')})` : ''}.`,
      ]
        .filter(Boolean)
        .join(' ');
      addHeaders(operation, (status) =>
        status === '403' ? { 'WWW-Authenticate': insufficientScope(scopes[0]) } : undefined,
      );
      nameOwnScope(operation, scopes[0]);
    }
    if (uncounted) {
      operation.description = [
        operation.description,
        facts.ownBudget
          ? `Not counted against the key's plan with a valid key, but in a budget of its own: ${facts.ownBudget.perMinute} a minute per key, 429 beyond (without a key, the address pays as anywhere).`
          : 'Not counted against the rate limits with a valid key (without one, the address pays as anywhere).',
      ]
        .filter(Boolean)
        .join(' ');
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

/**
 * Fills each enum the features declare (declaredEnum) from their declarations, now that every
 * feature is loaded: the decorators read them when each DTO was loaded, perhaps before a feature
 * loaded later declared its values.
 */
function fillDeclaredEnums(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  for (const { name, values, describe } of declaredEnumsOf()) {
    const schema = schemas[name];
    if (!schema) continue;
    schema.enum = [...values()];
    if (describe) schema.description = describe();
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
 * The document's description: what the API is, each tag the features name and what it is for,
 * and where to read about limits and errors.
 */
function describeApi(tags: Map<string, string>, publicBaseUrl: string): string {
  return [
    'JSON over HTTP interface for pet adoption. Every operation requires an API key sent as a ' +
      'bearer token (`Authorization: Bearer <API_KEY>`), carrying the scope the operation names.',
    'The operations, by tag:',
    [...tags].map(([name, description]) => `- **${name}**: ${description}`).join('\n'),
    'Every response carries the rate-limit headers of its key (or, without a valid key, of the ' +
      'client address): `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`, and ' +
      'the IETF `RateLimit-Policy` and `RateLimit`. Every error is an `Error` body whose `docUrl` ' +
      `points at its code's section of the [errors page](${publicBaseUrl}${ERROR_PAGE_PATH}): ` +
      'when it is answered, and what to do.',
  ].join('\n\n');
}

/**
 * Moves each error code's example (ApiErrorResponses) into `components.examples`, once, with the
 * configured base in its `docUrl` (the decorators ran before any configuration was read), and
 * refers to it from every response that shows it; an example of its operation's own (OWN_EXAMPLES)
 * stays where it is, with the base written in.
 */
function shareErrorExamples(document: OpenAPIObject, publicBaseUrl: string): void {
  type Example = { summary?: string; value?: { docUrl?: string } } | { $ref: string };
  const shared: Record<string, Example> = {};
  for (const operation of operationsOf(document)) {
    for (const response of Object.values(operation.responses ?? {})) {
      const content = (response as { content?: Record<string, { examples?: object }> }).content;
      const examples = content?.['application/json']?.examples as
        Record<string, Example> | undefined;
      for (const [code, example] of Object.entries(examples ?? {})) {
        if ('$ref' in example || !isErrorCode(code)) continue;
        const value = example.value!;
        if (OWN_EXAMPLES.has(code)) {
          examples![code] = {
            ...example,
            value: {
              ...value,
              docUrl: value.docUrl!.replace(PUBLIC_BASE_URL_PLACEHOLDER, publicBaseUrl),
            },
          };
          continue;
        }
        shared[code] ??= {
          ...example,
          value: {
            ...value,
            docUrl: value.docUrl!.replace(PUBLIC_BASE_URL_PLACEHOLDER, publicBaseUrl),
          },
        };
        examples![code] = { $ref: `#/components/examples/${code}` };
      }
    }
  }
  document.components = { ...document.components, examples: shared as never };
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
  // Each feature names its own tag (@Feature): a new feature needs no edit here. Two features may
  // share one (the event feed and its webhooks): it is listed once.
  const tags = new Map<string, string>();
  for (const { tag } of include.map(featureOf).filter((feature) => feature !== undefined)) {
    if (!tags.has(tag.name)) tags.set(tag.name, tag.description);
  }
  const builder = new DocumentBuilder()
    .setTitle(API_NAME)
    .setDescription(describeApi(tags, config.http.publicBaseUrl))
    .setVersion(API_VERSION)
    .addServer(config.http.publicBaseUrl, 'This instance (PUBLIC_BASE_URL)')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'API key: `Authorization: Bearer <API_KEY>`',
    });
  for (const [name, description] of tags) builder.addTag(name, description);
  if (config.http.stagingBaseUrl) {
    builder.addServer(config.http.stagingBaseUrl, 'Staging (STAGING_BASE_URL)');
  }

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
      ...RATE_LIMIT_HEADER_REFERENCES,
      ...(status === '401' ? { 'WWW-Authenticate': shared('WWW-Authenticate') } : {}),
      ...(status === '429' || status === '503' ? { 'Retry-After': shared('Retry-After') } : {}),
    }));
  }
  document.components = { ...document.components, headers: SHARED_HEADERS };
  describeRouteFacts(document, config);
  collectComponentSchemas(document);
  fillDeclaredEnums(document);
  shareErrorExamples(document, config.http.publicBaseUrl);
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
    .addServer(new URL(config.http.publicBaseUrl).origin, 'This instance (PUBLIC_BASE_URL)')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'admin')
    .addTag('admin', 'API keys and bans');
  const document = SwaggerModule.createDocument(app, builder.build(), {
    include,
    operationIdFactory: (_controller, method) => method,
  });
  shareErrorExamples(document, config.http.publicBaseUrl);
  return document;
}
