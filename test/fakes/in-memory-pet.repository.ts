import { NewPet, Pet } from '../../src/pets/domain/pet';
import {
  IdempotencyClaim,
  IdempotentCreation,
  PetPageQuery,
  PetRepository,
} from '../../src/pets/application/pet.repository';

/** A PetRepository kept in an array, for unit tests of the use cases. */
export class InMemoryPetRepository extends PetRepository {
  private readonly rows: Pet[] = [];
  private lastId = 0;
  private readonly claims = new Map<string, { requestHash: string; petId: number }>();

  async add(pet: NewPet): Promise<Pet> {
    const stored = { ...pet, id: ++this.lastId };
    this.rows.push(stored);
    return stored;
  }

  async addOnce(pet: NewPet, claim: IdempotencyClaim): Promise<IdempotentCreation> {
    const id = `${claim.scope}|${claim.key}`;
    const earlier = this.claims.get(id);
    if (earlier) {
      if (earlier.requestHash !== claim.requestHash) return { outcome: 'key_reused' };
      return { outcome: 'replayed', pet: (await this.findById(BigInt(earlier.petId)))! };
    }
    const stored = await this.add(pet);
    this.claims.set(id, { requestHash: claim.requestHash, petId: stored.id });
    return { outcome: 'created', pet: stored };
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
