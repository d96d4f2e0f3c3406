import { NewPet, Pet, PetId } from '../domain/pet';
import { PetStatus } from '../../common/pet-status';

export interface PetPageQuery {
  /** Only pets with this status, when given. */
  status?: PetStatus;
  /** Only pets whose id is greater than this (keyset pagination). */
  after?: PetId;
  /** Maximum number of pets to return. */
  limit: number;
}

/** Port: where pets are kept. Pages are ordered by ascending id. */
export abstract class PetRepository {
  abstract add(pet: NewPet): Promise<Pet>;
  abstract findById(id: PetId): Promise<Pet | null>;
  abstract findPage(query: PetPageQuery): Promise<Pet[]>;
}
