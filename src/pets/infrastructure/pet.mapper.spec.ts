import { PetMapper } from './pet.mapper';

describe('PetMapper', () => {
  it('turns bigint strings from the database into JSON numbers', () => {
    expect(
      PetMapper.toDomain({ id: '9007199254740991', name: 'Rex', categoryId: '42', status: 'sold' }),
    ).toEqual({ id: 9007199254740991, name: 'Rex', categoryId: 42, status: 'sold' });
  });

  it('writes category ids as exact strings', () => {
    expect(
      PetMapper.toPersistence({ name: 'Rex', categoryId: 9007199254740991, status: 'pending' }),
    ).toEqual({ name: 'Rex', categoryId: '9007199254740991', status: 'pending' });
  });

  it('refuses a row whose status the domain does not know', () => {
    expect(() =>
      PetMapper.toDomain({ id: '1', name: 'Rex', categoryId: '1', status: 'lost' }),
    ).toThrow('unknown status');
  });
});
