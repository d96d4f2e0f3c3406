import type { PetPayload, PetStatus } from '../../pets/application/ports/pet-types';

/**
 * Petfinder's shelter upload columns (its CSV import over FTP), in its mandated order, and how an
 * animal fills them (docs/api.md, "Petfinder's columns"): its codes for sex, size, age and status,
 * `1` or empty for its flags, up to six photo URLs.
 */
export const PETFINDER_COLUMNS = [
  'ID',
  'Internal',
  'AnimalName',
  'PrimaryBreed',
  'SecondaryBreed',
  'Sex',
  'Size',
  'Age',
  'Desc',
  'Type',
  'Status',
  'Shots',
  'Altered',
  'NoDogs',
  'NoCats',
  'NoKids',
  'Housetrained',
  'Declawed',
  'specialNeeds',
  'Mix',
  'photo1',
  'photo2',
  'photo3',
  'photo4',
  'photo5',
  'photo6',
] as const;

/** A: adoptable; H: on hold (pending: an order or staff holds it); X: adopted. */
export const PETFINDER_STATUS: Record<PetStatus, string> = {
  available: 'A',
  pending: 'H',
  sold: 'X',
};
const SEX: Record<string, string> = { female: 'F', male: 'M', unknown: 'U' };
const SIZE: Record<string, string> = { small: 'S', medium: 'M', large: 'L', xlarge: 'XL' };
const AGE: Record<string, string> = {
  baby: 'Baby',
  young: 'Young',
  adult: 'Adult',
  senior: 'Senior',
};

const yes = (value: boolean | null) => (value === true ? '1' : '');
/** Petfinder's "No…" columns: 1 when the shelter says the animal is not good with them. */
const no = (goodWith: boolean | null) => (goodWith === false ? '1' : '');

/** A pet as the cells of its Petfinder row; `type` is its category's name (Dog, Cat, …) or empty. */
export function petfinderCells(pet: PetPayload, type: string | null): string[] {
  const photos = pet.photos.slice(0, 6).map((photo) => photo.urls.full);
  return [
    String(pet.id),
    pet.externalId ?? '',
    pet.name,
    pet.breed.primary ?? '',
    pet.breed.secondary ?? '',
    pet.sex ? SEX[pet.sex] : '',
    pet.size ? SIZE[pet.size] : '',
    pet.age ? AGE[pet.age] : '',
    pet.description ?? '',
    type ?? '',
    PETFINDER_STATUS[pet.status],
    yes(pet.attributes.shotsCurrent),
    yes(pet.attributes.spayedNeutered),
    no(pet.environment.dogs),
    no(pet.environment.cats),
    no(pet.environment.children),
    yes(pet.attributes.houseTrained),
    '',
    yes(pet.attributes.specialNeeds),
    yes(pet.breed.mixed),
    ...Array.from({ length: 6 }, (_, i) => photos[i] ?? ''),
  ];
}
