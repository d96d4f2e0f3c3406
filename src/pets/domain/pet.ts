import { TextBounds, textProblem } from '../../common/text';
import { DEFAULT_PET_STATUS, isPetStatus, PetStatus } from './pet-status';
import { NewEvent } from '../../common/events/event';
import { PET_EVENTS } from '../../common/events/pet-events';
import { PetPhoto } from './pet-photo';
import { PetProfile, UNKNOWN_PROFILE } from './pet-profile-shape';
import { InvalidPetError } from './pet.errors';

/** An animal's id in its shelter's other system (v1.4): unique among its organisation's pets. */
export const EXTERNAL_ID: TextBounds = { min: 1, max: 64 };
import { patchedProfile, PetProfileInput, PetProfilePatch, profilePatch } from './pet-profile';

/** A pet's name, in Unicode code points. */
export const PET_NAME: TextBounds = { min: 1, max: 100 };
/**
 * Largest category id accepted: 2^53 - 1, the largest int64 that JSON clients in every
 * language carry exactly. Larger values would be silently rounded by some clients.
 */
export const MAX_CATEGORY_ID = Number.MAX_SAFE_INTEGER;

/**
 * A pet's id: assigned by the database, from 1 up to 2^53 - 1 (the integers every JSON client
 * carries exactly), so one number everywhere.
 */
export type PetId = number;
export const MAX_PET_ID: PetId = Number.MAX_SAFE_INTEGER;

/** An animal: its fields, its profile (v1.3), and what the service keeps of it. */
export interface Pet extends PetProfile {
  readonly id: PetId;
  readonly name: string;
  readonly categoryId: number;
  readonly status: PetStatus;
  /** The organisation that owns it: its staff alone change it. Never changes. */
  readonly organizationId: number;
  /** Its id in the shelter's other system, unique in the organisation; null when not given. */
  readonly externalId: string | null;
  /** Its photos by position (the photos feature changes them): none when created. */
  readonly photos: readonly PetPhoto[];
  /**
   * 1 when created, +1 on every change of the pet whoever makes it (a client, an order, the
   * sweeper): the database counts them. A client's If-Match names the version it read.
   */
  readonly version: number;
  /** Instants as RFC 3339 text in UTC, as they are answered: nothing here computes with them. */
  readonly createdAt: string;
  /** The instant of the last change: moves exactly when `version` does. */
  readonly updatedAt: string;
}

/** A pet found near a point (`near`): how far its organisation is, in kilometres (to 100 m). */
export interface PetNearby extends Pet {
  readonly distanceKm: number;
}

/** What a client says of a pet: the fields it creates it with, and may change. */
export type PetFields = Pick<Pet, 'name' | 'categoryId' | 'status'>;

/** A pet that is valid but not stored yet, so it has no id, version or instants. */
export type NewPet = PetFields & Pick<Pet, 'organizationId' | 'externalId'> & PetProfile;

export interface NewPetInput extends PetProfileInput {
  name: string;
  categoryId: number;
  status?: PetStatus;
  externalId?: string | null;
}

/**
 * A change of a pet as a client sends it (RFC 7396): the fields never null, the profile's and
 * `externalId` may be.
 */
export type PetPatchInput = Partial<PetFields> & PetProfileInput & { externalId?: string | null };

/**
 * A checked change: the fields it gives, `externalId` when given (null: none any more), and the
 * profile's members it gives (objects merge).
 */
export type PetPatch = { -readonly [F in keyof PetFields]?: PetFields[F] } & {
  externalId?: string | null;
} & PetProfilePatch;

function checkName(name: string): void {
  const nameProblem = textProblem(name, PET_NAME);
  if (nameProblem) throw new InvalidPetError(`name ${nameProblem}.`);
}

function checkCategoryId(categoryId: number): void {
  if (!Number.isInteger(categoryId) || categoryId < 1 || categoryId > MAX_CATEGORY_ID) {
    throw new InvalidPetError(`categoryId must be an integer from 1 to ${MAX_CATEGORY_ID}.`);
  }
}

/** An external id as given: null (none) or text within EXTERNAL_ID's bounds. */
function checkedExternalId(externalId: unknown): string | null {
  if (externalId === null) return null;
  if (typeof externalId !== 'string')
    throw new InvalidPetError('externalId must be a string or null.');
  const problem = textProblem(externalId, EXTERNAL_ID);
  if (problem) throw new InvalidPetError(`externalId ${problem}.`);
  return externalId;
}

function checkStatus(status: unknown): void {
  if (!isPetStatus(status)) {
    throw new InvalidPetError('status must be one of available, pending, sold.');
  }
}

/**
 * Builds a new pet of an organisation, enforcing the invariants every stored pet satisfies; what
 * its profile does not say is unknown. `now` decides what a birth date "in the future" is.
 */
export function newPet(input: NewPetInput, organizationId: number, now: Date): NewPet {
  const { name, categoryId, status = DEFAULT_PET_STATUS } = input;
  checkName(name);
  checkCategoryId(categoryId);
  checkStatus(status);
  const externalId = checkedExternalId(input.externalId ?? null);
  const profile = patchedProfile(UNKNOWN_PROFILE, profilePatch(input, now));
  return { name, categoryId, status, organizationId, externalId, ...profile };
}

/**
 * A change of a pet, each field it gives checked as a new pet's is. Every field of a pet is
 * required, so none can be removed: null is refused like any other invalid value. The profile's
 * members may be null: that makes them unknown again.
 */
export function petPatch(input: PetPatchInput, now: Date): PetPatch {
  const patch: PetPatch = profilePatch(input, now);
  for (const field of ['name', 'categoryId', 'status'] as const) {
    if (input[field] === null) {
      throw new InvalidPetError(`${field} must not be null: every field of a pet is required.`);
    }
  }
  if (input.name !== undefined) checkName((patch.name = input.name));
  if (input.categoryId !== undefined) checkCategoryId((patch.categoryId = input.categoryId));
  if (input.status !== undefined) checkStatus((patch.status = input.status));
  if (input.externalId !== undefined) patch.externalId = checkedExternalId(input.externalId);
  return patch;
}

/** Whether a patch gives no field at all (`{}`): it changes nothing and needs no write. */
export function isEmptyPatch(patch: PetPatch): boolean {
  return Object.values(patch).every((value) => value === undefined);
}

/** Whether applying `patch` would change the pet's status. */
export function changesStatus(pet: Pick<Pet, 'status'>, patch: PetPatch): boolean {
  return patch.status !== undefined && patch.status !== pet.status;
}

/** What a change of a pet records: the pet as answered, of its organisation. */
export function petEvent(type: keyof typeof PET_EVENTS, pet: Pet): NewEvent {
  return { type: PET_EVENTS[type], data: pet, organization: pet.organizationId };
}
