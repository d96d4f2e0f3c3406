import { UNKNOWN_PROFILE } from '../domain/pet-profile-shape';
import { Requester } from '../../common/requester';
import { InsufficientScopeError } from '../../common/scopes';
import {
  PetHasOpenOrderError,
  PetNotFoundError,
  PetVersionMismatchError,
} from '../domain/pet.errors';
import { DeletePet } from './delete-pet.use-case';
import { InMemoryPetRepository } from '../../../test/fakes/in-memory-pet.repository';
import { InMemoryEvents } from '../../../test/fakes/in-memory-events';

/** Staff of organisation 1, which owns the pet. */
const writer: Requester = { keyId: '1', scopes: ['pets:read', 'pets:manage'], organizationId: 1 };

describe('DeletePet', () => {
  let pets: InMemoryPetRepository;
  let deletePet: DeletePet;
  let events: InMemoryEvents;

  beforeEach(async () => {
    pets = new InMemoryPetRepository();
    events = new InMemoryEvents();
    deletePet = new DeletePet(pets, events, events.transactions);
    await pets.add({
      name: 'Rex',
      categoryId: 1,
      status: 'sold',
      organizationId: 1,
      externalId: null,
      ...UNKNOWN_PROFILE,
    });
  });

  it('refuses a requester without pets:manage', async () => {
    for (const requester of [
      { keyId: '2', scopes: ['pets:read'], organizationId: null },
      { keyId: '3', scopes: ['pets:write'], organizationId: 1 },
    ]) {
      await expect(deletePet.execute(requester, 1)).rejects.toThrow(InsufficientScopeError);
    }
    expect(await pets.findById(1)).not.toBeNull();
  });

  it("answers another organisation's staff, and a key without one, as if the pet did not exist", async () => {
    for (const requester of [
      { keyId: '4', scopes: ['pets:manage'], organizationId: 2 },
      { keyId: '5', scopes: ['pets:manage'], organizationId: null },
    ]) {
      await expect(deletePet.execute(requester, 1)).rejects.toThrow(PetNotFoundError);
    }
    expect(await pets.findById(1)).not.toBeNull();
    expect(events.recorded).toEqual([]);
  });

  it('removes the pet from the catalogue: not found and not listed from then on', async () => {
    expect(await deletePet.execute(writer, 1)).toMatchObject({ id: 1, name: 'Rex' });
    expect(await pets.findById(1)).toBeNull();
    expect(await pets.findPage({ limit: 10 })).toEqual([]);
    await expect(deletePet.execute(writer, 1)).rejects.toThrow(PetNotFoundError);
  });

  it('refuses a pet an open order holds, and keeps it', async () => {
    pets.openOrders.add(1);
    await expect(deletePet.execute(writer, 1)).rejects.toThrow(PetHasOpenOrderError);
    expect(await pets.findById(1)).not.toBeNull();
  });

  it('removes only under the version the precondition names', async () => {
    await expect(
      deletePet.execute(writer, 1, { anyVersion: false, versions: [7] }),
    ).rejects.toThrow(PetVersionMismatchError);
    expect(await pets.findById(1)).not.toBeNull();
    await deletePet.execute(writer, 1, { anyVersion: false, versions: [1] });
    expect(await pets.findById(1)).toBeNull();
  });

  it('records pet.deleted with the pet as it was, and nothing for a refusal', async () => {
    const removed = await deletePet.execute(writer, 1);
    await expect(deletePet.execute(writer, 1)).rejects.toThrow(PetNotFoundError);
    expect(events.recorded).toEqual([{ type: 'pet.deleted', data: removed, organization: 1 }]);
  });
});
