import { PetPayload, UNKNOWN_PROFILE } from '../../src/pets/application/ports/pet-types';
import { PetOwner, PetOwnership } from '../../src/pets/application/ports/pet-ownership';
import { PhotographedPets } from '../../src/photos/application/photographed-pets';
import { PetId } from '../../src/photos/domain/photo';

/** Pets as the photos feature sees them, for unit tests: an owner each, and a version. */
export class InMemoryPhotographedPets extends PhotographedPets {
  readonly pets = new Map<PetId, { owner: number; version: number }>();
  /** How often the port was asked anything: a refusal before any look-up leaves it at 0. */
  asked = 0;

  add(petId: PetId, owner: number): void {
    this.pets.set(petId, { owner, version: 1 });
  }

  /** The pets feature's ownership port over the same pets (docs/adr/0068). */
  readonly owners: PetOwnership = {
    ownerOf: async (petId: PetId): Promise<PetOwner | null> => {
      this.asked++;
      const pet = this.pets.get(petId);
      return pet ? { petId, organizationId: pet.owner, status: 'available', deleted: false } : null;
    },
    knownOrganizationOf: () => undefined,
  };

  async photosChanged(petId: PetId): Promise<PetPayload> {
    this.asked++;
    const pet = this.pets.get(petId)!;
    pet.version++;
    return {
      id: petId,
      name: `Pet ${petId}`,
      categoryId: 1,
      organizationId: pet.owner,
      externalId: null,
      photos: [],
      status: 'available',
      ...UNKNOWN_PROFILE,
      version: pet.version,
      createdAt: '2026-11-23T12:00:00.000Z',
      updatedAt: '2026-11-24T09:00:00.000Z',
    };
  }
}
