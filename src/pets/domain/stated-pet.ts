import { PET_PROFILE_MEMBERS, UNKNOWN_PROFILE } from './pet-profile-shape';
import { RowProblem } from './shelter-rows';
import { NewPetInput, Pet, PetPatch, petPatch } from './pet';
import { patchedProfile } from './pet-profile';

/** What a row may state: NewPet's members and `externalId`. */
const STATED = new Set<string>([
  'name',
  'categoryId',
  'status',
  'externalId',
  ...PET_PROFILE_MEMBERS,
]);
/** A Pet's read-only members: an exported pet's, ignored, so that an export imports back. */
const READ_ONLY = new Set(['id', 'organizationId', 'photos', 'version', 'createdAt', 'updatedAt']);

/** A pet as a row states it, with the external id it is found by. */
export type StatedPetInput = NewPetInput & { externalId: string };

const problem = (
  row: number,
  field: string | null,
  issue: string,
  message: string,
): RowProblem => ({
  row,
  field,
  issue,
  message,
});

/**
 * The pet a row states, or the row's problem with its shape (the values' rules are newPet's and
 * petPatch's): an object of NewPet's members with an `externalId` (the upsert's key).
 */
export function statedPet(row: number, body: unknown): StatedPetInput | RowProblem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return problem(row, null, 'format', 'A row must be a JSON object: one Pet body a line.');
  }
  const stated: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(body)) {
    if (READ_ONLY.has(member)) continue;
    if (!STATED.has(member)) {
      return problem(row, member, 'unknown_field', `${member} is not a member of a Pet body.`);
    }
    stated[member] = value;
  }
  if (stated.externalId === undefined || stated.externalId === null) {
    return problem(
      row,
      'externalId',
      'required',
      'externalId is required: an import finds the animal a row names by it.',
    );
  }
  if (typeof stated.name !== 'string') {
    return problem(
      row,
      'name',
      stated.name === undefined ? 'required' : 'type',
      'name must be a string.',
    );
  }
  if (typeof stated.categoryId !== 'number') {
    return problem(
      row,
      'categoryId',
      stated.categoryId === undefined ? 'required' : 'type',
      'categoryId must be an integer.',
    );
  }
  return stated as unknown as StatedPetInput;
}

/**
 * The change that makes a pet what a row states: every member the row gives, and every profile
 * member it leaves out unknown (a row states the whole animal); its status only when given (an
 * order, or a hold by hand, may have moved it since the shelter's file was written).
 */
export function statedPatch(input: StatedPetInput, now: Date): PetPatch {
  const whole: Record<string, unknown> = {};
  for (const member of PET_PROFILE_MEMBERS) {
    const given: unknown = input[member];
    const unknown: unknown = UNKNOWN_PROFILE[member];
    whole[member] =
      typeof given === 'object' && given !== null && !Array.isArray(unknown)
        ? { ...(unknown as object), ...(given as object) }
        : (given ?? null);
  }
  const { name, categoryId, status, externalId } = input;
  return petPatch({ ...whole, name, categoryId, status, externalId }, now);
}

/** Whether `a` and `b` are the same JSON value, whatever the order of their members. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) =>
    same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** The pet as `patch` would leave it. */
export function patchedPet(pet: Pet, patch: PetPatch): Pet {
  const { name = pet.name, categoryId = pet.categoryId, status = pet.status } = patch;
  const externalId = patch.externalId === undefined ? pet.externalId : patch.externalId;
  return { ...pet, ...patchedProfile(pet, patch), name, categoryId, status, externalId };
}

/** Whether applying `patch` would leave `pet` as it is: then nothing is written, no event. */
export function changesNothing(pet: Pet, patch: PetPatch): boolean {
  return same(patchedPet(pet, patch), pet);
}
