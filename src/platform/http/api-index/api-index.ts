/** The name and version the OpenAPI document and the index (`GET /`, `GET /v1`) give. */
export const API_NAME = 'Pet Adoption Service';
export const API_VERSION = '1.0.0';

/** What `GET /` and `GET /v1` answer: where a newcomer goes next, as absolute addresses. */
export interface ApiIndex {
  name: string;
  version: string;
  links: { api: string; docs: string; openapi: string; errors: string };
}

/** The index of the API served at `publicBaseUrl` (PUBLIC_BASE_URL, ending in /v1). */
export function apiIndexOf(publicBaseUrl: string): ApiIndex {
  return {
    name: API_NAME,
    version: API_VERSION,
    links: {
      api: publicBaseUrl,
      docs: `${publicBaseUrl}/docs`,
      openapi: `${publicBaseUrl}/openapi.json`,
      errors: `${publicBaseUrl}/docs/errors`,
    },
  };
}
