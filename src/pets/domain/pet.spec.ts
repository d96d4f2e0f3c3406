import { newPet, MAX_CATEGORY_ID } from './pet';
import { InvalidPetError } from './pet.errors';
import { PetStatus } from '../../common/pet-status';

describe('newPet', () => {
  it('defaults the status to available', () => {
    expect(newPet({ name: 'Rex', categoryId: 1 })).toEqual({
      name: 'Rex',
      categoryId: 1,
      status: 'available',
    });
  });

  it('keeps a given status', () => {
    expect(newPet({ name: 'Rex', categoryId: 1, status: 'sold' }).status).toBe('sold');
  });

  it.each(['', ' ', '\t\n', 'x'.repeat(101), '🐕'.repeat(101), 'a\u0000b', 'a\ud800b'])(
    'refuses the name %j',
    (name) => {
      expect(() => newPet({ name, categoryId: 1 })).toThrow(InvalidPetError);
    },
  );

  it.each(['x'.repeat(100), '🐕'.repeat(100)])('accepts a name of 100 characters: %j', (name) => {
    expect(newPet({ name, categoryId: 1 }).name).toBe(name);
  });

  it.each([0, -1, 1.5, MAX_CATEGORY_ID + 1, Number.NaN])('refuses the categoryId %p', (id) => {
    expect(() => newPet({ name: 'Rex', categoryId: id })).toThrow(InvalidPetError);
  });

  it('accepts the largest exact category id', () => {
    expect(newPet({ name: 'Rex', categoryId: MAX_CATEGORY_ID }).categoryId).toBe(MAX_CATEGORY_ID);
  });

  it('refuses an unknown status', () => {
    expect(() => newPet({ name: 'Rex', categoryId: 1, status: 'lost' as PetStatus })).toThrow(
      InvalidPetError,
    );
  });
});
