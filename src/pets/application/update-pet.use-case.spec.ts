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

const writer: Requester = { keyId: '1', scopes: ['pets:read', 'pets:write'] };

describe('UpdatePet', () => {
  let pets: InMemoryPetRepository;
  let updatePet: UpdatePet;
  let events: InMemoryEvents;

  beforeEach(async () => {
    pets = new InMemoryPetRepository();
    events = new InMemoryEvents();
    updatePet = new UpdatePet(pets, events, events.transactions);
    await pets.add({ name: 'Rex', categoryId: 1, status: 'available' });
    pets.now = '2026-11-24T09:00:00.000Z';
  });

  it('refuses a requester without pets:write, and changes nothing', async () => {
    const reader: Requester = { keyId: '2', scopes: ['pets:read'] };
    await expect(updatePet.execute(reader, 1, { name: 'Max' })).rejects.toThrow(
      InsufficientScopeError,
    );
    expect((await pets.findById(1))!.name).toBe('Rex');
  });

  it('changes the fields given, keeps the others, and counts a version', async () => {
    expect(await updatePet.execute(writer, 1, { name: 'Max', status: 'pending' })).toEqual({
      id: 1,
      name: 'Max',
      categoryId: 1,
      status: 'pending',
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
    await pets.remove(1, undefined, () => undefined);
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
    expect(events.recorded).toEqual([{ type: 'pet.updated', data: updated }]);
  });
});
