import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config';
import { GET_PET_DEPRECATION } from '../pets/http/get-pet-deprecation';

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
      description: `Removal instant (RFC 8594): \`${config.getPetSunset.toUTCString()}\``,
      schema: { type: 'string' },
    },
    Link: {
      description: 'The successor operation: `<…/pets>; rel="successor-version"`',
      schema: { type: 'string' },
    },
  };
}

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
    .addServer(config.publicBaseUrl, 'Production')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'API key: `Authorization: Bearer <API_KEY>`',
    })
    .addTag('animals', 'Animals of the pet store');
  if (config.stagingBaseUrl) builder.addServer(config.stagingBaseUrl, 'Staging');

  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controller, method) => method,
  });

  // Paths are written relative to the servers, which already end in /v1.
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [path.replace(/^\/v1/, ''), item]),
  );
  addHeaders(document, (_, status) =>
    status === '429' || status === '503' ? { 'Retry-After': RETRY_AFTER } : undefined,
  );
  const deprecation = deprecationHeaders(config);
  addHeaders(document, (operationId) => (operationId === 'getPet' ? deprecation : undefined));
  return document;
}
