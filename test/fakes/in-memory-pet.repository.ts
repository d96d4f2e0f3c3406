import { PetPageQuery, PetRepository } from '../../src/pets/application/pet.repository';
import { NewPet, Pet, PetId } from '../../src/pets/domain/pet';

/** A PetRepository kept in an array, for unit tests of the use cases. */
export class InMemoryPetRepository extends PetRepository {
  private readonly rows: Pet[] = [];
  private lastId = 0;

  async add(pet: NewPet): Promise<Pet> {
    const stored = { ...pet, id: ++this.lastId };
    this.rows.push(stored);
    return stored;
  }

  async findById(id: PetId): Promise<Pet | null> {
    return this.rows.find((pet) => pet.id === id) ?? null;
  }

  async findPage({ status, after = 0, limit }: PetPageQuery): Promise<Pet[]> {
    return this.rows
      .filter((pet) => pet.id > after && (!status || pet.status === status))
      .slice(0, limit);
  }
}
