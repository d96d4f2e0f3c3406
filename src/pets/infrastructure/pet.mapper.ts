import { roundKm } from '../../common/geo';
import { NewPet, Pet, PetNearby, PetPatch } from '../domain/pet';
import { isPetStatus } from '../domain/pet-status';
import { PetPhoto } from '../domain/pet-photo';
import { PetProfile } from '../domain/pet-profile-shape';
import { PetProfilePatch } from '../domain/pet-profile';

/** A row as the statements select it: bigints and instants as text, the profile as its JSON. */
export interface PetRow {
  id: string;
  name: string;
  categoryId: string;
  status: string;
  organizationId: string;
  externalId: string | null;
  profile: PetProfile;
  /** The `json` column as the driver parses it: already the answer's objects. */
  photos: PetPhoto[];
  /** With `near` only: its organisation's distance from the point, in kilometres. */
  distanceKm?: number;
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

export const PetMapper = {
  /** The pet, and with `near` its distance (set last: only pages near a point pay for it). */
  toDomain(row: PetRow): Pet | PetNearby {
    const pet = PetMapper.toPet(row);
    if (row.distanceKm !== undefined) {
      (pet as { distanceKm?: number }).distanceKm = roundKm(row.distanceKm);
    }
    return pet;
  },

  toPet(row: PetRow): Pet {
    if (!isPetStatus(row.status)) {
      throw new Error(`Stored pet ${row.id} has an unknown status.`);
    }
    const p = row.profile;
    // One literal, member by member in the document's order (the column is `jsonb`, which keeps
    // keys in an order of its own), and no spread: an object made by spreading this many members
    // is one V8 serialises about five times slower, which every page paid (docs/performance.md,
    // round five).
    return {
      id: Number(row.id),
      name: row.name,
      categoryId: Number(row.categoryId),
      status: row.status,
      organizationId: Number(row.organizationId),
      externalId: row.externalId,
      breed: { primary: p.breed.primary, secondary: p.breed.secondary, mixed: p.breed.mixed },
      age: p.age,
      birthDate: p.birthDate,
      sex: p.sex,
      size: p.size,
      coat: p.coat,
      colors: p.colors,
      description: p.description,
      attributes: {
        spayedNeutered: p.attributes.spayedNeutered,
        houseTrained: p.attributes.houseTrained,
        specialNeeds: p.attributes.specialNeeds,
        shotsCurrent: p.attributes.shotsCurrent,
      },
      environment: {
        children: p.environment.children,
        dogs: p.environment.dogs,
        cats: p.environment.cats,
      },
      tags: p.tags,
      photos: row.photos,
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  },

  toPersistence(pet: NewPet): PetFieldsRow & {
    organizationId: string;
    externalId: string | null;
    profile: string;
  } {
    const { name, categoryId, status, organizationId, externalId, ...profile } = pet;
    return {
      name,
      categoryId: String(categoryId),
      status,
      organizationId: String(organizationId),
      externalId,
      profile: JSON.stringify(profile),
    };
  },

  /** The fields a patch gives, and the profile members it gives as JSON (null: none). */
  patchToPersistence({ name, categoryId, status, externalId, ...profile }: PetPatch): Partial<
    PetFieldsRow & { externalId: string | null }
  > & {
    profile: string | null;
  } {
    const given = profile as PetProfilePatch;
    return {
      name,
      categoryId: categoryId === undefined ? undefined : String(categoryId),
      status,
      externalId,
      profile: Object.keys(given).length > 0 ? JSON.stringify(given) : null,
    };
  },
};
