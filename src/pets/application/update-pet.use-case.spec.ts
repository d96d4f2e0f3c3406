import { SystemClock } from '../../common/clock';
import { UNKNOWN_PROFILE } from '../domain/pet-profile-shape';
import { Requester } from '../../common/requester';
import { InsufficientScopeError } from '../../common/scopes';
import {
  InvalidPetError,
  PetHasOpenOrderError,
  PetNotFoundError,
  PetVersionMismatchError,
} from '../domain/pet.errors';
import { PetPatch } from '../domain/pet';
import { UpdatePet } from './update-pet.use-case';
import { InMemoryPetRepository } from '../../../test/fakes/in-memory-pet.repository';
import { InMemoryEvents } from '../../../test/fakes/in-memory-events';

/** Staff of organisation 1, which owns the pet. */
const writer: Requester = { keyId: '1', scopes: ['pets:read', 'pets:manage'], organizationId: 1 };

describe('UpdatePet', () => {
  let pets: InMemoryPetRepository;
  let updatePet: UpdatePet;
  let events: InMemoryEvents;

  beforeEach(async () => {
    pets = new InMemoryPetRepository();
    events = new InMemoryEvents();
    updatePet = new UpdatePet(pets, events, events.transactions, new SystemClock());
    await pets.add({
      name: 'Rex',
      categoryId: 1,
      status: 'available',
      organizationId: 1,
      externalId: null,
      ...UNKNOWN_PROFILE,
    });
    pets.now = '2026-11-24T09:00:00.000Z';
  });

  it("refuses a requester without pets:manage, its own organisation's staff included, and changes nothing", async () => {
    for (const requester of [
      { keyId: '2', scopes: ['pets:read'], organizationId: null },
      { keyId: '3', scopes: ['pets:read', 'pets:write'], organizationId: 1 },
    ]) {
      await expect(updatePet.execute(requester, 1, { name: 'Max' })).rejects.toThrow(
        InsufficientScopeError,
      );
    }
    expect((await pets.findById(1))!.name).toBe('Rex');
  });

  it("answers another organisation's staff, and a key without an organisation, as if the pet did not exist", async () => {
    for (const requester of [
      { keyId: '4', scopes: ['pets:manage'], organizationId: 2 },
      { keyId: '5', scopes: ['pets:manage'], organizationId: null },
    ]) {
      for (const patch of [{ name: 'Max' }, { status: 'pending' as const }, {}]) {
        await expect(updatePet.execute(requester, 1, patch)).rejects.toThrow(PetNotFoundError);
      }
      await expect(
        updatePet.execute(requester, 1, { name: 'Max' }, { anyVersion: false, versions: [9] }),
      ).rejects.toThrow(PetNotFoundError);
    }
    expect(await pets.findById(1)).toMatchObject({ name: 'Rex', status: 'available', version: 1 });
    expect(events.recorded).toEqual([]);
  });

  it('changes the fields given, keeps the others, and counts a version', async () => {
    expect(await updatePet.execute(writer, 1, { name: 'Max', status: 'pending' })).toEqual({
      id: 1,
      name: 'Max',
      categoryId: 1,
      status: 'pending',
      organizationId: 1,
      externalId: null,
      ...UNKNOWN_PROFILE,
      photos: [],
      version: 2,
      createdAt: '2026-11-23T12:00:00.000Z',
      updatedAt: '2026-11-24T09:00:00.000Z',
    });
  });

  it('answers {} with the pet unchanged, at the same version', async () => {
    const pet = await updatePet.execute(writer, 1, {});
    expect(pet).toMatchObject({ name: 'Rex', version: 1 });
    expect(pet.updatedAt).toBe('2026-11-23T12:00:00.000Z');
  });

  it('applies only under the version the precondition names', async () => {
    const stale = { anyVersion: false, versions: [2] } as const;
    await expect(updatePet.execute(writer, 1, { name: 'Max' }, stale)).rejects.toThrow(
      PetVersionMismatchError,
    );
    await expect(updatePet.execute(writer, 1, {}, stale)).rejects.toThrow(PetVersionMismatchError);
    expect((await pets.findById(1))!.name).toBe('Rex');
    const current = { anyVersion: false, versions: [1] } as const;
    expect((await updatePet.execute(writer, 1, { name: 'Max' }, current)).version).toBe(2);
  });

  it('refuses a status change while an order is open, and lets the name change', async () => {
    pets.openOrders.add(1);
    await expect(updatePet.execute(writer, 1, { status: 'sold' })).rejects.toThrow(
      PetHasOpenOrderError,
    );
    expect((await updatePet.execute(writer, 1, { name: 'Max' })).name).toBe('Max');
  });

  it('refuses an invalid or null field before anything is read', async () => {
    await expect(updatePet.execute(writer, 1, { name: '' })).rejects.toThrow(InvalidPetError);
    await expect(
      updatePet.execute(writer, 1, { categoryId: null } as unknown as PetPatch),
    ).rejects.toThrow(InvalidPetError);
  });

  it('raises not found for an unknown or deleted pet, whatever the precondition', async () => {
    await expect(updatePet.execute(writer, 9, { name: 'Max' })).rejects.toThrow(PetNotFoundError);
    await pets.remove(1, 1, undefined, () => undefined);
    const any = { anyVersion: true } as const;
    await expect(updatePet.execute(writer, 1, { name: 'Max' }, any)).rejects.toThrow(
      PetNotFoundError,
    );
    await expect(updatePet.execute(writer, 1, {})).rejects.toThrow(PetNotFoundError);
  });

  it('records pet.updated with the pet as answered for a change, and nothing for {}, its own values or a refusal', async () => {
    const updated = await updatePet.execute(writer, 1, { name: 'Max' });
    await updatePet.execute(writer, 1, {});
    expect(await updatePet.execute(writer, 1, { name: 'Max', categoryId: 1 })).toEqual(updated);
    await expect(updatePet.execute(writer, 9, { name: 'Max' })).rejects.toThrow(PetNotFoundError);
    expect(events.recorded).toEqual([{ type: 'pet.updated', data: updated, organization: 1 }]);
  });
});
