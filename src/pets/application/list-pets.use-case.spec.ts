import { UNKNOWN_PROFILE } from '../domain/pet-profile-shape';
import { ListPets } from './list-pets.use-case';
import { InMemoryPetRepository } from '../../../test/fakes/in-memory-pet.repository';

describe('ListPets', () => {
  let pets: InMemoryPetRepository;
  let listPets: ListPets;

  beforeEach(async () => {
    pets = new InMemoryPetRepository();
    listPets = new ListPets(pets);
    for (let i = 1; i <= 25; i++) {
      await pets.add({
        name: `pet ${i}`,
        categoryId: 1,
        status: i % 5 === 0 ? 'sold' : 'available',
        organizationId: 1,
        externalId: null,
        ...UNKNOWN_PROFILE,
      });
    }
  });

  it('returns 20 pets by default, in ascending id, with the id to continue after', async () => {
    const page = await listPets.execute({});
    expect(page.pets.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(page.nextAfter).toBe(20);
  });

  it('continues after the given id and reports the last page', async () => {
    const page = await listPets.execute({ after: 20 });
    expect(page.pets.map((p) => p.id)).toEqual([21, 22, 23, 24, 25]);
    expect(page.nextAfter).toBeNull();
  });

  it('has no next page when the page is exactly full', async () => {
    const page = await listPets.execute({ limit: 25 });
    expect(page.pets).toHaveLength(25);
    expect(page.nextAfter).toBeNull();
  });

  it('filters by category and by a fragment of the name, whatever its case', async () => {
    await pets.add({
      name: 'Rex',
      categoryId: 2,
      status: 'available',
      organizationId: 1,
      externalId: null,
      ...UNKNOWN_PROFILE,
    });
    await pets.add({
      name: 'T-REX',
      categoryId: 2,
      status: 'sold',
      organizationId: 1,
      externalId: null,
      ...UNKNOWN_PROFILE,
    });
    expect((await listPets.execute({ categoryId: 2 })).pets.map((p) => p.id)).toEqual([26, 27]);
    expect((await listPets.execute({ name: 'rex' })).pets.map((p) => p.id)).toEqual([26, 27]);
    expect(
      (await listPets.execute({ name: 'rex', status: 'sold', categoryId: 2 })).pets.map(
        (p) => p.id,
      ),
    ).toEqual([27]);
  });

  it('filters by status', async () => {
    const page = await listPets.execute({ status: 'sold', limit: 2 });
    expect(page.pets.map((p) => p.id)).toEqual([5, 10]);
    expect(page.nextAfter).toBe(10);
  });

  it("passes v1.3's finding to the repository, and pages what it finds", async () => {
    await pets.add({
      name: 'Maple',
      categoryId: 1,
      status: 'available',
      organizationId: 3,
      externalId: null,
      ...UNKNOWN_PROFILE,
      age: 'young',
      environment: { children: true, dogs: null, cats: null },
    });
    const page = await listPets.execute({
      finding: { ages: ['young', 'adult'], goodWith: ['children'], organizationId: 3 },
      limit: 1,
    });
    expect(page.pets.map((p) => p.name)).toEqual(['Maple']);
    expect(page.nextAfter).toBeNull();
    expect((await listPets.execute({ finding: { ages: ['senior'] } })).pets).toEqual([]);
  });
});
