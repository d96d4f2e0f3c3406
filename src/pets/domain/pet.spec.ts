import { changesStatus, isEmptyPatch, MAX_CATEGORY_ID, newPet, PetPatch, petPatch } from './pet';
import { InvalidPetError } from './pet.errors';
import { PetStatus } from './pet-status';
import { UNKNOWN_PROFILE } from './pet-profile-shape';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('newPet', () => {
  it('defaults the status to available, and belongs to the organisation given', () => {
    expect(newPet({ name: 'Rex', categoryId: 1 }, 7, NOW)).toEqual({
      name: 'Rex',
      categoryId: 1,
      status: 'available',
      organizationId: 7,
      externalId: null,
      ...UNKNOWN_PROFILE,
    });
  });

  it('keeps a given status', () => {
    expect(newPet({ name: 'Rex', categoryId: 1, status: 'sold' }, 1, NOW).status).toBe('sold');
  });

  it.each(['', ' ', '\t\n', 'x'.repeat(101), '🐕'.repeat(101), 'a\u0000b', 'a\ud800b'])(
    'refuses the name %j',
    (name) => {
      expect(() => newPet({ name, categoryId: 1 }, 1, NOW)).toThrow(InvalidPetError);
    },
  );

  it.each(['x'.repeat(100), '🐕'.repeat(100)])('accepts a name of 100 characters: %j', (name) => {
    expect(newPet({ name, categoryId: 1 }, 1, NOW).name).toBe(name);
  });

  it.each([0, -1, 1.5, MAX_CATEGORY_ID + 1, Number.NaN])('refuses the categoryId %p', (id) => {
    expect(() => newPet({ name: 'Rex', categoryId: id }, 1, NOW)).toThrow(InvalidPetError);
  });

  it('accepts the largest exact category id', () => {
    expect(newPet({ name: 'Rex', categoryId: MAX_CATEGORY_ID }, 1, NOW).categoryId).toBe(
      MAX_CATEGORY_ID,
    );
  });

  it('keeps an external id of 1 to 64 characters, and refuses any other', () => {
    expect(newPet({ name: 'Rex', categoryId: 1, externalId: 'A-1043' }, 7, NOW).externalId).toBe(
      'A-1043',
    );
    for (const externalId of ['', '  ', 'x'.repeat(65), 7 as unknown as string]) {
      expect(() => newPet({ name: 'Rex', categoryId: 1, externalId }, 7, NOW)).toThrow(
        InvalidPetError,
      );
    }
    expect(petPatch({ externalId: null }, NOW)).toEqual({ externalId: null });
  });

  it('refuses an unknown status', () => {
    expect(() =>
      newPet({ name: 'Rex', categoryId: 1, status: 'lost' as PetStatus }, 1, NOW),
    ).toThrow(InvalidPetError);
  });
});

describe('petPatch', () => {
  it("keeps the fields given, checked as a new pet's", () => {
    expect(petPatch({ name: 'Max' }, NOW)).toEqual({ name: 'Max' });
    expect(petPatch({ categoryId: 2, status: 'sold' }, NOW)).toEqual({
      categoryId: 2,
      status: 'sold',
    });
    expect(petPatch({}, NOW)).toEqual({});
  });

  it.each([
    [{ name: ' ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ categoryId: 0 }, 'categoryId'],
    [{ categoryId: MAX_CATEGORY_ID + 1 }, 'categoryId'],
    [{ status: 'lost' as PetStatus }, 'status'],
  ])('refuses %j, naming %s', (patch, field) => {
    expect(() => petPatch(patch, NOW)).toThrow(new RegExp(`^${field}`));
  });

  it.each(['name', 'categoryId', 'status'])(
    'refuses null for %s: every field is required',
    (field) => {
      expect(() => petPatch({ [field]: null } as unknown as PetPatch, NOW)).toThrow(
        `${field} must not be null`,
      );
    },
  );

  it('tells an empty patch, and one that changes the status', () => {
    expect(isEmptyPatch({})).toBe(true);
    expect(isEmptyPatch({ name: 'Max' })).toBe(false);
    expect(changesStatus({ status: 'available' }, { status: 'pending' })).toBe(true);
    expect(changesStatus({ status: 'pending' }, { status: 'pending' })).toBe(false);
    expect(changesStatus({ status: 'pending' }, { name: 'Max' })).toBe(false);
  });
});
