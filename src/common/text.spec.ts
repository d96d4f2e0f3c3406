import { characterProblem, codePointLength, textProblem } from './text';

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
    ['Rex\tthe dog', /control character U\+0009/],
    ['Rex\n', /control character U\+000A/],
    ['Rex\r', /control character U\+000D/],
    ['Re\u0007x', /control character U\+0007/],
    ['Re\u001bx', /control character U\+001B/],
    ['Re\u007fx', /control character U\+007F/],
    ['Re\u0085x', /control character U\+0085/],
    ['Re\u009fx', /control character U\+009F/],
  ])('refuses %j', (text, why) => {
    expect(textProblem(text, bounds)).toMatch(why);
  });

  it('takes tab and line breaks in prose only, and no other control even there', () => {
    const prose = { ...bounds, multiline: true };
    expect(textProblem('Line one\r\nLine two\tend', prose)).toBeNull();
    expect(textProblem('Line one\u000bLine two', prose)).toMatch(/U\+000B/);
    expect(textProblem('a\u0000b', prose)).toMatch(/NUL/);
    expect(textProblem('a\u0085b', prose)).toMatch(/U\+0085/);
  });
});

describe('characterProblem', () => {
  it.each(['https://example.com/a b', '2027-01-01T00:00:00Z', 'Ünïcödé 名前 🐕', '\u00a0\u200b'])(
    'accepts %j',
    (text) => {
      expect(characterProblem(text)).toBeNull();
    },
  );

  it.each([
    'https://example.com/\u0000',
    'https://exa\tmple.com/',
    'https://example.com/\r\nX-Injected: 1',
    '\ud83d',
    '\u0080',
  ])('refuses %j', (text) => {
    expect(characterProblem(text)).not.toBeNull();
  });
});
