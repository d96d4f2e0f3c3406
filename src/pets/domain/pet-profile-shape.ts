/**
 * What an adopter reads of an animal besides its name (v1.3): the shape every pet answer and every
 * `pet.*` event carries, here beside the statuses so that a feature answering a pet it does not own
 * (an order's event) carries the same object. The pets feature owns the rules (domain/pet-profile).
 */
export const PET_AGES = ['baby', 'young', 'adult', 'senior'] as const;
export const PET_SEXES = ['female', 'male', 'unknown'] as const;
export const PET_SIZES = ['small', 'medium', 'large', 'xlarge'] as const;
/** Petfinder's coat lengths and kinds: what shelters already record. */
export const PET_COATS = ['hairless', 'short', 'medium', 'long', 'wire', 'curly'] as const;

export type PetAge = (typeof PET_AGES)[number];
export type PetSex = (typeof PET_SEXES)[number];
export type PetSize = (typeof PET_SIZES)[number];
export type PetCoat = (typeof PET_COATS)[number];

export interface Breed {
  readonly primary: string | null;
  readonly secondary: string | null;
  readonly mixed: boolean;
}

/** Each true, false, or null when the shelter has not said. */
export interface PetAttributes {
  readonly spayedNeutered: boolean | null;
  readonly houseTrained: boolean | null;
  readonly specialNeeds: boolean | null;
  readonly shotsCurrent: boolean | null;
}

/** What an animal may be good with: `environment`'s members, and the `goodWith` filter's words. */
export const GOOD_WITH = ['children', 'dogs', 'cats'] as const;
export type GoodWith = (typeof GOOD_WITH)[number];

/** Good with each: true, false, or null when the shelter has not said. */
export interface PetEnvironment {
  readonly children: boolean | null;
  readonly dogs: boolean | null;
  readonly cats: boolean | null;
}

/** Every member always present: null, false or [] when unknown. */
export interface PetProfile {
  readonly breed: Breed;
  readonly age: PetAge | null;
  /** A full-date (`2024-03-01`), never in the future. */
  readonly birthDate: string | null;
  readonly sex: PetSex | null;
  readonly size: PetSize | null;
  readonly coat: PetCoat | null;
  readonly colors: readonly string[];
  readonly description: string | null;
  readonly attributes: PetAttributes;
  readonly environment: PetEnvironment;
  readonly tags: readonly string[];
}

/** The members of a profile, in the order answers give them. */
export const PET_PROFILE_MEMBERS = [
  'breed',
  'age',
  'birthDate',
  'sex',
  'size',
  'coat',
  'colors',
  'description',
  'attributes',
  'environment',
  'tags',
] as const satisfies readonly (keyof PetProfile)[];

/** The profile of an animal nothing is known of: what a v1 body creates. */
export const UNKNOWN_PROFILE: PetProfile = Object.freeze({
  breed: Object.freeze({ primary: null, secondary: null, mixed: false }),
  age: null,
  birthDate: null,
  sex: null,
  size: null,
  coat: null,
  colors: Object.freeze([]),
  description: null,
  attributes: Object.freeze({
    spayedNeutered: null,
    houseTrained: null,
    specialNeeds: null,
    shotsCurrent: null,
  }),
  environment: Object.freeze({ children: null, dogs: null, cats: null }),
  tags: Object.freeze([]),
});
