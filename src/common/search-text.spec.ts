import { searchTextProblem } from './search-text';

describe('searchTextProblem', () => {
  it.each(['bel', 'Rex', '  ab1 ', 'Zoë', '名前です', '42 Street', 'x'.repeat(100)])(
    'accepts %j',
    (text) => {
      expect(searchTextProblem(text)).toBeNull();
    },
  );

  it.each([
    ['ab', /at least 3 letters or digits/],
    ['a.b', /at least 3 letters or digits/],
    ['%%%', /at least 3 letters or digits/],
    ['🐕🐕🐕', /at least 3 letters or digits/],
    ['', /1 to 100/],
    ['x'.repeat(101), /1 to 100/],
    ['ab\u0000c', /NUL/],
  ])('refuses %j', (text, why) => {
    expect(searchTextProblem(text)).toMatch(why);
  });
});
