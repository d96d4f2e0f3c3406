import { UNKNOWN_PROFILE } from '../domain/pet-profile-shape';
import { PetNotFoundError } from '../domain/pet.errors';
import { GetPet } from './get-pet.use-case';
import { InMemoryPetRepository } from '../../../test/fakes/in-memory-pet.repository';

describe('GetPet', () => {
  it('returns the pet with that id', async () => {
    const pets = new InMemoryPetRepository();
    const stored = await pets.add({
      name: 'Rex',
      categoryId: 3,
      status: 'pending',
      organizationId: 1,
      externalId: null,
      ...UNKNOWN_PROFILE,
    });
    expect(await new GetPet(pets).execute(1)).toEqual(stored);
  });

  it('raises not found for an unknown id', async () => {
    await expect(new GetPet(new InMemoryPetRepository()).execute(7)).rejects.toThrow(
      PetNotFoundError,
    );
  });
});
