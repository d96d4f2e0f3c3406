import { NewPet, Pet } from '../../domain/pet';
import { PetPageQuery, PetRepository } from '../pet.repository';

/** A PetRepository kept in an array, for unit tests of the use cases. */
export class InMemoryPetRepository extends PetRepository {
  private readonly rows: Pet[] = [];
  private lastId = 0;

  async add(pet: NewPet): Promise<Pet> {
    const stored = { ...pet, id: ++this.lastId };
    this.rows.push(stored);
    return stored;
  }

  async findById(id: bigint): Promise<Pet | null> {
    return this.rows.find((pet) => BigInt(pet.id) === id) ?? null;
  }

  async findPage({ status, after = 0n, limit }: PetPageQuery): Promise<Pet[]> {
    return this.rows
      .filter((pet) => BigInt(pet.id) > after && (!status || pet.status === status))
      .slice(0, limit);
  }
}
