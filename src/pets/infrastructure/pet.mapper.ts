import { NewPet, Pet, PetPatch } from '../domain/pet';
import { isPetStatus } from '../../common/pet-status';

/** A row as the statements select it: bigints and instants as text. */
export interface PetRow {
  id: string;
  name: string;
  categoryId: string;
  status: string;
  organizationId: string;
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
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  },

  toPersistence(pet: NewPet): PetFieldsRow & { organizationId: string } {
    return {
      name: pet.name,
      categoryId: String(pet.categoryId),
      status: pet.status,
      organizationId: String(pet.organizationId),
    };
  },

  patchToPersistence(patch: PetPatch): Partial<PetFieldsRow> {
    return {
      name: patch.name,
      categoryId: patch.categoryId === undefined ? undefined : String(patch.categoryId),
      status: patch.status,
    };
  },
};
