import { NewPet, Pet, PetPatch } from '../domain/pet';
import { isPetStatus } from '../../common/pet-status';
import { PetProfile } from '../../common/pet-profile';
import { PetProfilePatch } from '../domain/pet-profile';

/** A row as the statements select it: bigints and instants as text, the profile as its JSON. */
export interface PetRow {
  id: string;
  name: string;
  categoryId: string;
  status: string;
  organizationId: string;
  profile: PetProfile;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** A pet's fields as the statements take them: category ids as exact text. */
export interface PetFieldsRow {
  name: string;
  categoryId: string;
  status: string;
}

/**
 * The profile as answers give it, member by member in the document's order: the column is
 * `jsonb`, which keeps its keys in an order of its own.
 */
function profileOf({ breed, attributes, environment, ...p }: PetProfile): PetProfile {
  return {
    breed: { primary: breed.primary, secondary: breed.secondary, mixed: breed.mixed },
    age: p.age,
    birthDate: p.birthDate,
    sex: p.sex,
    size: p.size,
    coat: p.coat,
    colors: p.colors,
    description: p.description,
    attributes: {
      spayedNeutered: attributes.spayedNeutered,
      houseTrained: attributes.houseTrained,
      specialNeeds: attributes.specialNeeds,
      shotsCurrent: attributes.shotsCurrent,
    },
    environment: { children: environment.children, dogs: environment.dogs, cats: environment.cats },
    tags: p.tags,
  };
}

export const PetMapper = {
  toDomain(row: PetRow): Pet {
    if (!isPetStatus(row.status)) {
      throw new Error(`Stored pet ${row.id} has an unknown status.`);
    }
    return {
      id: Number(row.id),
      name: row.name,
      categoryId: Number(row.categoryId),
      status: row.status,
      organizationId: Number(row.organizationId),
      ...profileOf(row.profile),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  },

  toPersistence(pet: NewPet): PetFieldsRow & { organizationId: string; profile: string } {
    const { name, categoryId, status, organizationId, ...profile } = pet;
    return {
      name,
      categoryId: String(categoryId),
      status,
      organizationId: String(organizationId),
      profile: JSON.stringify(profile),
    };
  },

  /** The fields a patch gives, and the profile members it gives as JSON (null: none). */
  patchToPersistence({ name, categoryId, status, ...profile }: PetPatch): Partial<PetFieldsRow> & {
    profile: string | null;
  } {
    const given = profile as PetProfilePatch;
    return {
      name,
      categoryId: categoryId === undefined ? undefined : String(categoryId),
      status,
      profile: Object.keys(given).length > 0 ? JSON.stringify(given) : null,
    };
  },
};
