import { UNKNOWN_PROFILE } from '../../src/pets/application/ports/pet-types';

/** An instant as the API writes it: RFC 3339, UTC, milliseconds. */
export const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A Pet as answered: the fields given, of organisation 1 unless they say another (a key without
 * an organisation creates there), at `version`, with its read-only instants (any, as long as they
 * are instants).
 */
export function petBody(
  fields: {
    id?: number;
    name: string;
    categoryId: number;
    status: string;
    organizationId?: number;
    externalId?: string | null;
  },
  version = 1,
) {
  return {
    ...fields,
    organizationId: fields.organizationId ?? 1,
    // No id in another system unless given (v1.4).
    externalId: fields.externalId ?? null,
    // Nothing known of it: what a v1 body creates (v1.3's profile, every member present).
    ...UNKNOWN_PROFILE,
    // No photo yet (v1.3): photos are added apart (POST /v1/pets/{petId}/photos).
    photos: [],
    version,
    createdAt: expect.stringMatching(INSTANT),
    updatedAt: expect.stringMatching(INSTANT),
  };
}

/** Adds a pet through the API (Rex of category 1 unless `fields` say otherwise); its body. */
export async function addPet(
  api: { post(path: string): import('supertest').Test },
  fields: Record<string, unknown> = {},
) {
  const response = await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1, ...fields });
  expect(response.status).toBe(201);
  return response.body as {
    id: number;
    name: string;
    categoryId: number;
    status: string;
    organizationId: number;
    version: number;
    createdAt: string;
    updatedAt: string;
  };
}
