import { UNKNOWN_PROFILE } from '../domain/pet-profile-shape';
import { PetMapper } from './pet.mapper';

const row = {
  id: '9007199254740991',
  name: 'Rex',
  categoryId: '42',
  status: 'sold',
  organizationId: '7',
  externalId: null,
  profile: UNKNOWN_PROFILE,
  photos: [],
  version: 3,
  createdAt: '2026-11-23T12:00:00.000Z',
  updatedAt: '2026-11-24T08:30:00.125Z',
};

describe('PetMapper', () => {
  it('turns bigint strings from the database into JSON numbers, and keeps version and instants', () => {
    expect(PetMapper.toDomain(row)).toEqual({
      id: 9007199254740991,
      name: 'Rex',
      categoryId: 42,
      status: 'sold',
      organizationId: 7,
      externalId: null,
      ...UNKNOWN_PROFILE,
      photos: [],
      version: 3,
      createdAt: '2026-11-23T12:00:00.000Z',
      updatedAt: '2026-11-24T08:30:00.125Z',
    });
  });

  it('writes category and organisation ids as exact strings', () => {
    expect(
      PetMapper.toPersistence({
        name: 'Rex',
        categoryId: 9007199254740991,
        status: 'pending',
        organizationId: 9007199254740991,
        externalId: 'A-1043',
        ...UNKNOWN_PROFILE,
      }),
    ).toEqual({
      name: 'Rex',
      categoryId: '9007199254740991',
      status: 'pending',
      organizationId: '9007199254740991',
      externalId: 'A-1043',
      profile: JSON.stringify(UNKNOWN_PROFILE),
    });
    expect(PetMapper.patchToPersistence({ categoryId: 9007199254740991 })).toEqual({
      categoryId: '9007199254740991',
      profile: null,
    });
    expect(PetMapper.patchToPersistence({ age: null, breed: { mixed: true } })).toEqual({
      profile: '{"age":null,"breed":{"mixed":true}}',
    });
  });

  it('refuses a row whose status the domain does not know', () => {
    expect(() => PetMapper.toDomain({ ...row, status: 'lost' })).toThrow('unknown status');
  });
});
