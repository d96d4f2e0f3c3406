import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths } from './schema';

/** The specification's schemas, by their names. */
export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type Pets = components['schemas']['Pets'];
export type PetStatus = components['schemas']['PetStatus'];
export type ErrorBody = components['schemas']['Error'];
export type Order = components['schemas']['Order'];
export type NewOrder = components['schemas']['NewOrder'];
export type OrderStatus = components['schemas']['OrderStatus'];
export type Inventory = components['schemas']['Inventory'];
export type PetUpdate = components['schemas']['PetUpdate'];
export type Category = components['schemas']['Category'];
export type CategoryUpdate = components['schemas']['CategoryUpdate'];

export interface PetAdoptionClientOptions {
  /** The API's base address, ending in /v1, such as `http://localhost:3000/v1`. */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** Another fetch, for tests or older runtimes. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A typed client of the Pet Adoption Service: every path, parameter, body and response is checked
 * against the OpenAPI document it was generated from.
 *
 * ```ts
 * const api = createPetAdoptionClient({ baseUrl, apiKey });
 * const { data, error } = await api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
 * ```
 */
export function createPetAdoptionClient({ baseUrl, apiKey, fetch }: PetAdoptionClientOptions) {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
}
