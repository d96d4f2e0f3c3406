import { UNKNOWN_PROFILE } from './pet-profile-shape';
import { InvalidPetError } from './pet.errors';
import { birthDateProblem, patchedProfile, PetProfileInput, profilePatch } from './pet-profile';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('birthDateProblem', () => {
  it.each(['2024-02-29', '2000-01-01', '2026-11-26'])('accepts %s', (date) => {
    expect(birthDateProblem(date, NOW)).toBeNull();
  });

  it('accepts tomorrow in UTC while it is already tomorrow somewhere (UTC+14), not the day after', () => {
    const late = new Date('2026-11-26T11:00:00Z'); // 01:00 on the 27th in Kiribati
    expect(birthDateProblem('2026-11-27', late)).toBeNull();
    expect(birthDateProblem('2026-11-28', late)).toBe('must not be in the future');
    const early = new Date('2026-11-26T09:00:00Z'); // 23:00 on the 26th in Kiribati
    expect(birthDateProblem('2026-11-27', early)).toBe('must not be in the future');
  });

  it.each([
    ['2023-02-29', 'has no day 29 in month 02'],
    ['2024-02-30', 'has no day 30 in month 02'],
    ['2024-13-01', 'has no day 01 in month 13'],
    ['2024-00-10', 'has no day 10 in month 00'],
    ['0000-01-01', 'has no day 01 in month 01'],
    ['2024-3-1', 'must be a full-date such as 2024-03-01'],
    ['2024-03-01T00:00:00Z', 'must be a full-date such as 2024-03-01'],
    [' 2024-03-01', 'must be a full-date such as 2024-03-01'],
  ])('refuses %s: %s', (date, problem) => {
    expect(birthDateProblem(date, NOW)).toBe(problem);
  });
});

describe('profilePatch', () => {
  const refused = (input: unknown) => () => profilePatch(input as PetProfileInput, NOW);

  it('gives only the members sent; null makes a member unknown, an object all unknown, a list empty', () => {
    expect(profilePatch({}, NOW)).toEqual({});
    expect(
      profilePatch(
        { age: null, breed: null, colors: null, tags: null, attributes: { houseTrained: true } },
        NOW,
      ),
    ).toEqual({
      age: null,
      breed: UNKNOWN_PROFILE.breed,
      colors: [],
      tags: [],
      attributes: { houseTrained: true },
    });
  });

  it('takes a whole profile at its bounds', () => {
    const whole = {
      breed: { primary: 'b'.repeat(50), secondary: '🐕'.repeat(50), mixed: true },
      age: 'senior',
      birthDate: '2015-06-30',
      sex: 'unknown',
      size: 'xlarge',
      coat: 'wire',
      colors: ['c'.repeat(30), 'Brown', 'White'],
      description: `${'🐾'.repeat(9_998)}\r\n`,
      attributes: {
        spayedNeutered: true,
        houseTrained: false,
        specialNeeds: null,
        shotsCurrent: true,
      },
      environment: { children: true, dogs: false, cats: null },
      tags: Array.from({ length: 10 }, (_, i) => `tag ${i}`),
    } as const;
    expect(profilePatch(whole, NOW)).toEqual(whole);
  });

  it.each([
    [{ age: 'puppy' }, 'age must be one of baby, young, adult, senior.'],
    [{ sex: 'F' }, 'sex must be one of female, male, unknown.'],
    [{ size: 'huge' }, 'size must be one of small, medium, large, xlarge.'],
    [{ coat: 'fluffy' }, 'coat must be one of hairless, short, medium, long, wire, curly.'],
    [{ birthDate: '2027-01-01' }, 'birthDate must not be in the future.'],
    [{ birthDate: 20240301 }, 'birthDate must be a string.'],
    [{ breed: { primary: 'b'.repeat(51) } }, 'breed.primary must be 1 to 50 characters long.'],
    [{ breed: { mixed: null } }, 'breed.mixed must be true or false.'],
    [{ breed: { colour: 'x' } }, 'breed.colour is not a member of breed.'],
    [{ breed: 'Labrador' }, 'breed must be an object or null.'],
    [{ breed: ['Labrador'] }, 'breed must be an object or null.'],
    [{ colors: ['a', 'b', 'c', 'd'] }, 'colors must hold at most 3 entries.'],
    [{ colors: ['c'.repeat(31)] }, 'colors[0] must be 1 to 30 characters long.'],
    [{ colors: 'black' }, 'colors must be a list of strings.'],
    [{ colors: [1] }, 'colors[0] must be a string.'],
    [{ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags must hold at most 10 entries.'],
    [{ tags: ['Calm', 'calm'] }, 'tags must be distinct: "calm" is given twice.'],
    [{ tags: ['ｃａｌｍ', 'calm'] }, 'tags must be distinct: "calm" is given twice.'],
    [{ tags: ['two\nlines'] }, 'tags[0] must not contain the control character U+000A.'],
    [{ description: 'x'.repeat(10_001) }, 'description must be 1 to 10000 characters long.'],
    [{ description: 'a\u0000b' }, 'description must not contain the NUL character (U+0000).'],
    [
      { attributes: { houseTrained: 'yes' } },
      'attributes.houseTrained must be true, false or null.',
    ],
    [{ environment: { birds: true } }, 'environment.birds is not a member of environment.'],
  ])('refuses %j: %s', (input, message) => {
    expect(refused(input)).toThrow(InvalidPetError);
    expect(refused(input)).toThrow(message);
  });
});

describe('patchedProfile', () => {
  const stored = patchedProfile(
    UNKNOWN_PROFILE,
    profilePatch(
      {
        breed: { primary: 'Collie', mixed: true },
        age: 'adult',
        colors: ['Black'],
        attributes: { houseTrained: true, shotsCurrent: true },
        environment: { children: true },
        tags: ['calm'],
      },
      NOW,
    ),
  );

  it('replaces the members given and merges the objects member by member', () => {
    const next = patchedProfile(
      stored,
      profilePatch(
        { breed: { secondary: 'Poodle' }, attributes: { shotsCurrent: null }, colors: ['Tan'] },
        NOW,
      ),
    );
    expect(next).toEqual({
      ...stored,
      breed: { primary: 'Collie', secondary: 'Poodle', mixed: true },
      attributes: { ...stored.attributes, houseTrained: true, shotsCurrent: null },
      colors: ['Tan'],
    });
  });

  it('makes members unknown again with null, an object whole', () => {
    const next = patchedProfile(stored, profilePatch({ age: null, environment: null }, NOW));
    expect(next).toEqual({ ...stored, age: null, environment: UNKNOWN_PROFILE.environment });
  });

  it('keeps the order of the members as answers give them', () => {
    const next = patchedProfile(stored, profilePatch({ tags: [], age: 'baby' }, NOW));
    expect(Object.keys(next)).toEqual(Object.keys(UNKNOWN_PROFILE));
  });
});
