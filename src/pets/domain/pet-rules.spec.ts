import { UNKNOWN_PROFILE } from './pet-profile-shape';
import { Pet } from './pet';
import { checkRemoval, checkUpdate } from './pet-rules';
import { PetHasOpenOrderError } from './pet.errors';

const pet = (status: Pet['status']): Pet => ({
  id: 7,
  name: 'Rex',
  categoryId: 1,
  status,
  organizationId: 1,
  externalId: null,
  photos: [],
  ...UNKNOWN_PROFILE,
  version: 3,
  createdAt: '2026-11-23T12:00:00.000Z',
  updatedAt: '2026-11-23T12:00:00.000Z',
});

describe('checkUpdate: while an order is open, the order owns the status', () => {
  it.each(['available', 'pending', 'sold'] as const)(
    'lets a pet without an open order change from pending to %s',
    (status) => {
      expect(() => checkUpdate(pet('pending'), { status }, { openOrder: false })).not.toThrow();
    },
  );

  it.each(['available', 'sold'] as const)(
    'refuses a change of status to %s while an order is open',
    (status) => {
      expect(() => checkUpdate(pet('pending'), { status }, { openOrder: true })).toThrow(
        PetHasOpenOrderError,
      );
    },
  );

  it('refuses a status change that comes with other fields, naming the pet', () => {
    expect(() =>
      checkUpdate(pet('pending'), { name: 'Max', status: 'available' }, { openOrder: true }),
    ).toThrow('Pet 7 has an open order');
  });

  it('lets other fields change while an order is open', () => {
    expect(() =>
      checkUpdate(pet('pending'), { name: 'Max', categoryId: 2 }, { openOrder: true }),
    ).not.toThrow();
  });

  it('lets a patch restate the status the order gave the pet', () => {
    expect(() =>
      checkUpdate(pet('pending'), { name: 'Max', status: 'pending' }, { openOrder: true }),
    ).not.toThrow();
  });
});

describe('checkRemoval: a pet with an open order cannot be deleted', () => {
  it.each(['available', 'pending', 'sold'] as const)(
    'lets a %s pet without an open order go',
    (status) => {
      expect(() => checkRemoval(pet(status), { openOrder: false })).not.toThrow();
    },
  );

  it('refuses to delete a pet an open order holds', () => {
    expect(() => checkRemoval(pet('pending'), { openOrder: true })).toThrow(PetHasOpenOrderError);
  });
});
