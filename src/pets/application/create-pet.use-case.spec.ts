import { UNKNOWN_PROFILE } from '../domain/pet-profile-shape';
import { SystemClock } from '../../common/clock';
import { IdempotencyKeyReusedError } from '../../platform/idempotency/idempotency';
import { InvalidPetError } from '../domain/pet.errors';
import { InsufficientScopeError } from '../../common/scopes';
import { Requester } from '../../common/requester';
import { CreatePet } from './create-pet.use-case';
import { InMemoryIdempotency } from '../../../test/fakes/in-memory-idempotency';
import { InMemoryPetRepository } from '../../../test/fakes/in-memory-pet.repository';
import { InMemoryEvents } from '../../../test/fakes/in-memory-events';

const writer: Requester = { keyId: '1', scopes: ['pets:read', 'pets:write'], organizationId: null };

/** The event ports of a use case, recording into `events`. */
/** The use case's ports after the repository and idempotency: events, transactions, the clock. */
const ports = (events = new InMemoryEvents()) =>
  [events, events.transactions, new SystemClock()] as const;

describe('CreatePet', () => {
  it('refuses a requester without pets:write, and stores nothing', async () => {
    const pets = new InMemoryPetRepository();
    const reader: Requester = {
      keyId: '2',
      scopes: ['pets:read', 'orders:write'],
      organizationId: null,
    };
    await expect(
      new CreatePet(pets, new InMemoryIdempotency(), ...ports()).execute(reader, {
        name: 'Rex',
        categoryId: 3,
      }),
    ).rejects.toThrow(InsufficientScopeError);
    expect(await pets.findPage({ limit: 10 })).toEqual([]);
  });

  it('stores the pet with the default status and returns it with its id', async () => {
    const pets = new InMemoryPetRepository();
    const { pet, replayed } = await new CreatePet(
      pets,
      new InMemoryIdempotency(),
      ...ports(),
    ).execute(writer, {
      name: 'Rex',
      categoryId: 3,
    });
    expect(pet).toEqual({
      id: 1,
      name: 'Rex',
      categoryId: 3,
      status: 'available',
      organizationId: 1,
      externalId: null,
      ...UNKNOWN_PROFILE,
      photos: [],
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(replayed).toBe(false);
    expect(await pets.findById(1)).toEqual(pet);
  });

  it("adds the pet to the key's own organisation", async () => {
    const pets = new InMemoryPetRepository();
    const staff: Requester = { keyId: '3', scopes: ['pets:write'], organizationId: 7 };
    const { pet } = await new CreatePet(pets, new InMemoryIdempotency(), ...ports()).execute(
      staff,
      { name: 'Rex', categoryId: 3 },
    );
    expect(pet.organizationId).toBe(7);
  });

  it('stores nothing when the pet is invalid', async () => {
    const pets = new InMemoryPetRepository();
    await expect(
      new CreatePet(pets, new InMemoryIdempotency(), ...ports()).execute(writer, {
        name: ' ',
        categoryId: 3,
      }),
    ).rejects.toThrow(InvalidPetError);
    expect(await pets.findPage({ limit: 10 })).toEqual([]);
  });

  describe('with an idempotency key', () => {
    const key = { scope: 'key:1', key: 'retry-1' };

    it('creates once and replays the same pet for a retry of the same request', async () => {
      const pets = new InMemoryPetRepository();
      const createPet = new CreatePet(pets, new InMemoryIdempotency(), ...ports());
      const first = await createPet.execute(writer, { name: 'Rex', categoryId: 3 }, key);
      const retry = await createPet.execute(writer, { name: 'Rex', categoryId: 3 }, key);
      expect(retry).toEqual({ pet: first.pet, replayed: true });
      expect(await pets.findPage({ limit: 10 })).toHaveLength(1);
    });

    it('refuses the same key with a different request', async () => {
      const createPet = new CreatePet(
        new InMemoryPetRepository(),
        new InMemoryIdempotency(),
        ...ports(),
      );
      await createPet.execute(writer, { name: 'Rex', categoryId: 3 }, key);
      await expect(createPet.execute(writer, { name: 'Rex', categoryId: 4 }, key)).rejects.toThrow(
        IdempotencyKeyReusedError,
      );
      await expect(
        createPet.execute(writer, { name: 'Rex', categoryId: 3, status: 'available' }, key),
      ).rejects.toThrow(IdempotencyKeyReusedError);
    });

    it('keeps the keys of different clients apart', async () => {
      const pets = new InMemoryPetRepository();
      const createPet = new CreatePet(pets, new InMemoryIdempotency(), ...ports());
      await createPet.execute(writer, { name: 'Rex', categoryId: 3 }, key);
      const other = await createPet.execute(
        writer,
        { name: 'Rex', categoryId: 3 },
        { ...key, scope: 'key:2' },
      );
      expect(other.replayed).toBe(false);
      expect(await pets.findPage({ limit: 10 })).toHaveLength(2);
    });
  });

  describe('records what happened', () => {
    it('records pet.created with the pet as answered, once per creation', async () => {
      const events = new InMemoryEvents();
      const createPet = new CreatePet(
        new InMemoryPetRepository(),
        new InMemoryIdempotency(),
        ...ports(events),
      );
      const key = { scope: 'key:1', key: 'retry-1' };
      const { pet } = await createPet.execute(writer, { name: 'Rex', categoryId: 3 }, key);
      await createPet.execute(writer, { name: 'Rex', categoryId: 3 }, key);
      expect(events.recorded).toEqual([{ type: 'pet.created', data: pet, organization: 1 }]);
    });

    it('records nothing for a refused creation', async () => {
      const events = new InMemoryEvents();
      const createPet = new CreatePet(
        new InMemoryPetRepository(),
        new InMemoryIdempotency(),
        ...ports(events),
      );
      await expect(createPet.execute(writer, { name: ' ', categoryId: 3 })).rejects.toThrow();
      await expect(
        createPet.execute(
          { keyId: '2', scopes: ['pets:read'], organizationId: null },
          { name: 'Rex', categoryId: 3 },
        ),
      ).rejects.toThrow(InsufficientScopeError);
      expect(events.recorded).toEqual([]);
    });
  });
});
