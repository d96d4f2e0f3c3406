import { InvalidPetError } from '../domain/pet.errors';
import { CreatePet } from './create-pet.use-case';
import { InMemoryPetRepository } from './testing/in-memory-pet.repository';

describe('CreatePet', () => {
  it('stores the pet with the default status and returns it with its id', async () => {
    const pets = new InMemoryPetRepository();
    const pet = await new CreatePet(pets).execute({ name: 'Rex', categoryId: 3 });
    expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
    expect(await pets.findById(1n)).toEqual(pet);
  });

  it('stores nothing when the pet is invalid', async () => {
    const pets = new InMemoryPetRepository();
    await expect(new CreatePet(pets).execute({ name: ' ', categoryId: 3 })).rejects.toThrow(
      InvalidPetError,
    );
    expect(await pets.findPage({ limit: 10 })).toEqual([]);
  });
});
