import { keyedNames, mixedScriptProblem, uniqueNameKey } from './unique-name';

describe('uniqueNameKey: names that are one name', () => {
  it.each([
    ['Straße', 'STRASSE', 'strasse', 'Strasse'],
    ['Dogs', 'DOGS', 'dogs', ' Dogs ', 'Ｄｏｇｓ', 'Do\u200Bgs', '\u200EDogs\u200F', 'Do\u00ADgs'],
    ['Dogs', '\u202EDogs\u202C', '\u2066Dogs\u2069', 'D\u2060ogs', '\uFEFFDogs', 'Dogs\u00A0'],
    ['Café', 'Cafe\u0301', 'CAFÉ'],
    ['ﬁsh', 'fish', 'FISH'],
    ['ΟΔΟΣ', 'οδος', 'οδοσ'],
    ['Cats 2', 'Cats ²'],
    ['Dogs Rescue', 'Dogs  Rescue', 'Dogs\u00A0Rescue', 'Dogs\u3000Rescue', 'Dogs \u200B Rescue'],
  ])('%s and the others share a key', (...names) => {
    const keys = new Set(names.map(uniqueNameKey));
    expect([...keys]).toEqual([uniqueNameKey(names[0])]);
  });

  it.each([
    ['Dogs', 'Dog'],
    ['Dogs', 'Dо gs'],
    ['Dogs', 'Do gs'],
    ['Dogs', 'Dоgs'], // a Cyrillic о: told apart here, refused by mixedScriptProblem
    ['Собаки', 'Cобаки'],
    ['Dogs', '犬'],
  ])('%s and %s are two names', (a, b) => {
    expect(uniqueNameKey(a)).not.toBe(uniqueNameKey(b));
  });

  it('is what is stored: trimmed, folded, in NFKC, with nothing invisible', () => {
    expect(uniqueNameKey('  Ｇｒｏße Hunde\u200B ')).toBe('grosse hunde');
  });
});

describe('mixedScriptProblem: look-alikes in one word', () => {
  it.each([
    'D\u043Egs', // Cyrillic о
    '\u0421ats', // Cyrillic С
    'D\u03BFgs', // Greek ο
    'Pets D\u043Egs',
    'D\u200B\u043Egs', // not two words for a zero-width space
    'Ｄ\u043Egs', // full-width Latin is Latin
    '\u0421\u03B1\u0442', // Cyrillic with Greek
  ])('refuses %j', (name) => {
    expect(mixedScriptProblem(name)).toMatch(/must not mix/);
  });

  it.each([
    'Dogs',
    'Собаки',
    'Σκύλοι',
    'Dogs Собаки',
    'Dogs-Собаки',
    'Hunde & Katzen',
    'Chiens 2',
    '犬 Dogs',
    'Dogs 🐕',
    'Café',
  ])('accepts %j', (name) => {
    expect(mixedScriptProblem(name)).toBeNull();
  });
});

describe('keyedNames: the backfill of names stored before the rule', () => {
  it('keeps the oldest name and renames the later ones that share its key, within the bound', () => {
    const rows = [
      { id: 2, name: 'Dogs' },
      { id: 5, name: 'Straße' },
      { id: 7, name: 'ＤＯＧＳ' },
      { id: 9, name: 'STRASSE' },
      { id: 11, name: 'Do\u200Bgs' },
      { id: 12, name: 'Cats' },
    ];
    expect(keyedNames(rows, 'category', 50)).toEqual([
      { id: 2, name: 'Dogs', key: 'dogs' },
      { id: 5, name: 'Straße', key: 'strasse' },
      { id: 7, name: 'ＤＯＧＳ (category 7)', key: 'dogs (category 7)' },
      { id: 9, name: 'STRASSE (category 9)', key: 'strasse (category 9)' },
      { id: 11, name: 'Do\u200Bgs (category 11)', key: 'dogs (category 11)' },
      { id: 12, name: 'Cats', key: 'cats' },
    ]);
  });

  it('shortens a long name to fit, and tries again if the new name is taken too', () => {
    const long = 'x'.repeat(50);
    const [, renamed] = keyedNames(
      [
        { id: 1, name: long },
        { id: 3, name: long.toUpperCase() },
      ],
      'category',
      50,
    );
    expect([...renamed.name]).toHaveLength(50);
    expect(renamed.name).toMatch(/^X+ \(category 3\)$/);
    const taken = keyedNames(
      [
        { id: 1, name: 'Dogs' },
        { id: 2, name: 'dogs (category 4)' },
        { id: 4, name: 'DOGS' },
      ],
      'category',
      50,
    );
    expect(taken.map(({ name }) => name)).toEqual([
      'Dogs',
      'dogs (category 4)',
      'DOGS (category 4, 2)',
    ]);
    expect(new Set(taken.map(({ key }) => key)).size).toBe(3);
  });
});
