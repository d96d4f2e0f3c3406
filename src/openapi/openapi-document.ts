import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../platform/config/app-config';
import { AdminModule } from '../access/admin/admin.module';
import { GET_PET_DEPRECATION } from '../pets/http/get-pet-deprecation';
import { PetsModule } from '../pets/pets.module';

type HeaderObject = { description: string; schema: Record<string, unknown> };
type ResponseObject = { headers?: Record<string, HeaderObject> };

/** Headers the deprecated operation sends on every response. */
function deprecationHeaders(config: AppConfig): Record<string, HeaderObject> {
  return {
    Deprecation: {
      description: `Deprecated since 2026-11-21T00:00:00Z (RFC 9745): \`${GET_PET_DEPRECATION}\``,
      schema: { type: 'string' },
    },
    Sunset: {
      description: `Removal instant (RFC 8594): \`${config.http.sunsets.getPet.toUTCString()}\``,
      schema: { type: 'string' },
    },
    Link: {
      description: 'The successor operation: `<…/pets>; rel="successor-version"`',
      schema: { type: 'string' },
    },
  };
}

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

const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before retrying',
  schema: { type: 'integer', minimum: 1 },
};

/** Adds headers to every response of the matching operations. */
function addHeaders(
  document: OpenAPIObject,
  pick: (
    operationId: string | undefined,
    status: string,
  ) => Record<string, HeaderObject> | undefined,
): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Record<string, ResponseObject> }).responses;
      if (!responses) continue;
      for (const [status, response] of Object.entries(responses)) {
        const headers = pick((operation as { operationId?: string }).operationId, status);
        if (headers) response.headers = { ...response.headers, ...headers };
      }
    }
  }
}

/** The OpenAPI 3 document of the running service, generated from the code. */
export function createOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Adoption Service')
    .setDescription(
      'JSON over HTTP interface for a pet store: list, add and fetch animals. ' +
        'Every operation requires an API key sent as a bearer token.',
    )
    .setVersion('1.0.0')
    .addServer(config.http.publicBaseUrl, 'Production')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'API key: `Authorization: Bearer <API_KEY>`',
    })
    .addTag('animals', 'Animals of the pet store');
  if (config.http.stagingBaseUrl) builder.addServer(config.http.stagingBaseUrl, 'Staging');

  const document = SwaggerModule.createDocument(app, builder.build(), {
    include: [PetsModule],
    operationIdFactory: (_controller, method) => method,
  });

  // Paths are written relative to the servers, which already end in /v1.
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [path.replace(/^\/v1/, ''), item]),
  );
  addHeaders(document, () => RATE_LIMIT_HEADERS);
  addHeaders(document, (_, status) =>
    status === '401' ? { 'WWW-Authenticate': WWW_AUTHENTICATE } : undefined,
  );
  addHeaders(document, (_, status) =>
    status === '429' || status === '503' ? { 'Retry-After': RETRY_AFTER } : undefined,
  );
  const deprecation = deprecationHeaders(config);
  addHeaders(document, (operationId) => (operationId === 'getPet' ? deprecation : undefined));
  return document;
}

/** The admin API's own document: it sits outside /v1 and takes ADMIN_TOKEN, not an API key. */
export function createAdminOpenApiDocument(
  app: INestApplication,
  config: AppConfig,
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
    include: [AdminModule],
    operationIdFactory: (_controller, method) => method,
  });
}
