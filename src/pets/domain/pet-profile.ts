import {
  Breed,
  PET_AGES,
  PET_COATS,
  PET_SEXES,
  PET_SIZES,
  PetAge,
  PetAttributes,
  PetCoat,
  PetEnvironment,
  PetProfile,
  PetSex,
  PetSize,
} from './pet-profile-shape';
import { fullDateProblem } from '../../common/date-time';
import { TextBounds, textProblem } from '../../common/text';
import { InvalidPetError } from './pet.errors';

export const BREED_NAME: TextBounds = { min: 1, max: 50 };
export const COLOR: TextBounds = { min: 1, max: 30 };
export const TAG: TextBounds = { min: 1, max: 30 };
export const DESCRIPTION: TextBounds = { min: 1, max: 10_000, multiline: true };
export const MAX_COLORS = 3;
export const MAX_TAGS = 10;

type Nullable<T> = { [K in keyof T]?: T[K] | null };

/**
 * A profile as a client sends it, on a create or a change (RFC 7396): every member optional;
 * `null` makes a member unknown again (an object's members all unknown, a list empty); `breed`,
 * `attributes` and `environment` merge member by member.
 */
export interface PetProfileInput {
  breed?: Nullable<Breed> | null;
  age?: PetAge | null;
  birthDate?: string | null;
  sex?: PetSex | null;
  size?: PetSize | null;
  coat?: PetCoat | null;
  colors?: readonly string[] | null;
  description?: string | null;
  attributes?: Nullable<PetAttributes> | null;
  environment?: Nullable<PetEnvironment> | null;
  tags?: readonly string[] | null;
}

/**
 * A checked profile change: only the members given, each as it will be stored. An object's members
 * are partial (they merge); an object or list given as null is its unknown value.
 */
export type PetProfilePatch = {
  -readonly [K in keyof PetProfile]?: PetProfile[K] extends Breed | PetAttributes | PetEnvironment
    ? Partial<PetProfile[K]>
    : PetProfile[K];
};

const UNKNOWN_BREED: Breed = { primary: null, secondary: null, mixed: false };
const UNKNOWN_ATTRIBUTES: PetAttributes = {
  spayedNeutered: null,
  houseTrained: null,
  specialNeeds: null,
  shotsCurrent: null,
};
const UNKNOWN_ENVIRONMENT: PetEnvironment = { children: null, dogs: null, cats: null };

/** The latest time zone (Kiribati, UTC+14): a birth date is in the future nowhere before that. */
const LATEST_OFFSET_MS = 14 * 60 * 60 * 1000;

const invalid = (message: string) => new InvalidPetError(message);

function checkText(value: unknown, bounds: TextBounds, member: string): void {
  if (typeof value !== 'string') throw invalid(`${member} must be a string.`);
  const problem = textProblem(value, bounds);
  if (problem) throw invalid(`${member} ${problem}.`);
}

function checkChoice(value: unknown, choices: readonly string[], member: string): void {
  if (!choices.includes(value as string)) {
    throw invalid(`${member} must be one of ${choices.join(', ')}.`);
  }
}

function checkFlag(value: unknown, member: string, nullable: boolean): void {
  if (typeof value === 'boolean' || (nullable && value === null)) return;
  throw invalid(`${member} must be true${nullable ? ', false or null' : ' or false'}.`);
}

/** Why `text` is no full-date (RFC 3339 `2024-03-01`) on or before today anywhere, or null. */
export function birthDateProblem(text: string, now: Date): string | null {
  const problem = fullDateProblem(text);
  if (problem) return problem;
  const latestToday = new Date(now.getTime() + LATEST_OFFSET_MS).toISOString().slice(0, 10);
  return text > latestToday ? 'must not be in the future' : null;
}

function checkList(
  value: unknown,
  bounds: TextBounds,
  most: number,
  member: string,
): readonly string[] {
  if (!Array.isArray(value)) throw invalid(`${member} must be a list of strings.`);
  if (value.length > most) throw invalid(`${member} must hold at most ${most} entries.`);
  value.forEach((entry, index) => checkText(entry, bounds, `${member}[${index}]`));
  return [...(value as string[])];
}

/** The members of an object member that were given, each checked by `check`. */
function checkedObject<T extends object>(
  value: unknown,
  unknown: T,
  member: string,
  check: (field: keyof T, given: unknown, path: string) => void,
): Partial<T> {
  if (value === null) return { ...unknown };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`${member} must be an object or null.`);
  }
  const given: Partial<T> = {};
  for (const [field, fieldValue] of Object.entries(value)) {
    if (!(field in unknown)) throw invalid(`${member}.${field} is not a member of ${member}.`);
    if (fieldValue === undefined) continue;
    check(field as keyof T, fieldValue, `${member}.${field}`);
    given[field as keyof T] = fieldValue as T[keyof T];
  }
  return given;
}

/**
 * Checks a profile as a client sent it and answers the change it makes, or throws
 * InvalidPetError naming the first member at fault. `now` decides what "in the future" is.
 */
export function profilePatch(input: PetProfileInput, now: Date): PetProfilePatch {
  const patch: PetProfilePatch = {};
  const { breed, age, birthDate, sex, size, coat, colors, description, attributes, environment } =
    input;
  if (breed !== undefined) {
    patch.breed = checkedObject(breed, UNKNOWN_BREED, 'breed', (field, value, path) =>
      field === 'mixed'
        ? checkFlag(value, path, false)
        : value !== null && checkText(value, BREED_NAME, path),
    );
  }
  const choice = <T extends string>(
    value: T | null | undefined,
    choices: readonly T[],
    name: string,
  ) => {
    if (value !== undefined && value !== null) checkChoice(value, choices, name);
    return value;
  };
  if (age !== undefined) patch.age = choice(age, PET_AGES, 'age');
  if (birthDate !== undefined) {
    if (birthDate !== null) {
      if (typeof birthDate !== 'string') throw invalid('birthDate must be a string.');
      const problem = birthDateProblem(birthDate, now);
      if (problem) throw invalid(`birthDate ${problem}.`);
    }
    patch.birthDate = birthDate;
  }
  if (sex !== undefined) patch.sex = choice(sex, PET_SEXES, 'sex');
  if (size !== undefined) patch.size = choice(size, PET_SIZES, 'size');
  if (coat !== undefined) patch.coat = choice(coat, PET_COATS, 'coat');
  if (colors !== undefined) {
    patch.colors = colors === null ? [] : checkList(colors, COLOR, MAX_COLORS, 'colors');
  }
  if (description !== undefined) {
    if (description !== null) checkText(description, DESCRIPTION, 'description');
    patch.description = description;
  }
  const flags = (_field: unknown, given: unknown, path: string) => checkFlag(given, path, true);
  if (attributes !== undefined) {
    patch.attributes = checkedObject(attributes, UNKNOWN_ATTRIBUTES, 'attributes', flags);
  }
  if (environment !== undefined) {
    patch.environment = checkedObject(environment, UNKNOWN_ENVIRONMENT, 'environment', flags);
  }
  if (input.tags !== undefined) patch.tags = input.tags === null ? [] : checkedTags(input.tags);
  return patch;
}

/** What makes two tags the same: compatibility forms and case set aside (`ｃａｌｍ`, `Calm`). */
export const tagKey = (tag: string): string => tag.normalize('NFKC').toLowerCase();

/** Tags are a set: the same tag twice, whatever its case, is a client's mistake worth saying. */
function checkedTags(value: unknown): readonly string[] {
  const tags = checkList(value, TAG, MAX_TAGS, 'tags');
  const seen = new Set<string>();
  for (const tag of tags) {
    const key = tagKey(tag);
    if (seen.has(key))
      throw invalid(`tags must be distinct: ${JSON.stringify(tag)} is given twice.`);
    seen.add(key);
  }
  return tags;
}

/** Whether a patch gives any member of the profile. */
export function changesProfile(patch: PetProfilePatch): boolean {
  return Object.values(patch).some((value) => value !== undefined);
}

/** The profile `patch` leaves: given members replace, objects merge member by member. */
export function patchedProfile(current: PetProfile, patch: PetProfilePatch): PetProfile {
  const { breed, attributes, environment, ...scalars } = patch;
  const kept = Object.fromEntries(Object.entries(scalars).filter(([, v]) => v !== undefined));
  return {
    ...current,
    ...kept,
    breed: { ...current.breed, ...breed },
    attributes: { ...current.attributes, ...attributes },
    environment: { ...current.environment, ...environment },
  };
}
