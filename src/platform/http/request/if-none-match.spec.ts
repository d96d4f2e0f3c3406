import { namesEntityTag } from './if-none-match';

describe('namesEntityTag', () => {
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc" ', true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
    ['"x"', false],
    ['', false],
  ])('reads If-None-Match: %s as %s for "abc"', (field, named) => {
    expect(namesEntityTag(field, 'abc')).toBe(named);
  });

  it('names nothing without the header', () => {
    expect(namesEntityTag(undefined, 'abc')).toBe(false);
  });
});
