import { Requester } from './requester';

/** An organisation's id, as every feature that names one holds it. */
export type OrganizationId = number;

/**
 * The organisation that existed before organisations did (the pet store of v1): it owns every pet
 * created before v1.3 and every pet a key without an organisation creates, so that a v1 client's
 * requests keep their v1 answers.
 */
export const HOUSE_ORGANIZATION_ID = 1;

/**
 * Whether the requester's key belongs to `organizationId`'s staff: what a key may change is what
 * its own organisation owns. A key without an organisation (an adopter's, an integrator's) owns
 * nothing. The scope a change needs is checked before this, and first: a missing scope is a 403,
 * something of another organisation's a 404, as if it did not exist for that operation.
 */
export function isStaffOf(requester: Requester, organizationId: number): boolean {
  return requester.organizationId !== null && requester.organizationId === organizationId;
}

/** The organisation a requester's new pets belong to: its own, or the house's for a v1 key. */
export function creatingOrganization(requester: Requester): number {
  return requester.organizationId ?? HOUSE_ORGANIZATION_ID;
}
