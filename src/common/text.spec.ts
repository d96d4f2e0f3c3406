import { codePointLength, textProblem } from './text';

const bounds = { min: 1, max: 100 };

describe('codePointLength', () => {
  it('counts an astral character once', () => {
    expect(codePointLength('🐕')).toBe(1);
    expect(codePointLength('a🐕b')).toBe(3);
    expect(codePointLength('🐕'.repeat(100))).toBe(100);
  });

  it('counts a lone surrogate as one', () => {
    expect(codePointLength('\ud800')).toBe(1);
    expect(codePointLength('\udc00\ud800')).toBe(2);
  });
});

describe('textProblem', () => {
  it.each(['Rex', ' Rex ', 'x'.repeat(100), '🐕'.repeat(100), 'Ünïcödé 名前', 'a\u00a0b'])(
    'accepts %j',
    (text) => {
      expect(textProblem(text, bounds)).toBeNull();
    },
  );

  it.each([
    ['', /1 to 100 characters/],
    ['x'.repeat(101), /1 to 100 characters/],
    ['🐕'.repeat(101), /1 to 100 characters/],
    [' \t\n', /only white space/],
    ['a\u0000b', /NUL/],
    ['a\ud800b', /lone surrogate/],
    ['\udc00', /lone surrogate/],
    ['🐕'.slice(0, 1), /lone surrogate/],
  ])('refuses %j', (text, why) => {
    expect(textProblem(text, bounds)).toMatch(why);
  });
});
