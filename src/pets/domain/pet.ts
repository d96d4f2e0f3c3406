import { TextBounds, textProblem } from '../../common/text';
import { DEFAULT_PET_STATUS, isPetStatus, PetStatus } from '../../common/pet-status';
import { InvalidPetError } from './pet.errors';

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

export interface Pet {
  readonly id: PetId;
  readonly name: string;
  readonly categoryId: number;
  readonly status: PetStatus;
}

/** A pet that is valid but not stored yet, so it has no id. */
export type NewPet = Omit<Pet, 'id'>;

export interface NewPetInput {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

/** Builds a new pet, enforcing the invariants every stored pet satisfies. */
export function newPet(input: NewPetInput): NewPet {
  const { name, categoryId, status = DEFAULT_PET_STATUS } = input;
  const nameProblem = textProblem(name, PET_NAME);
  if (nameProblem) throw new InvalidPetError(`name ${nameProblem}.`);
  if (!Number.isInteger(categoryId) || categoryId < 1 || categoryId > MAX_CATEGORY_ID) {
    throw new InvalidPetError(`categoryId must be an integer from 1 to ${MAX_CATEGORY_ID}.`);
  }
  if (!isPetStatus(status)) {
    throw new InvalidPetError('status must be one of available, pending, sold.');
  }
  return { name, categoryId, status };
}
