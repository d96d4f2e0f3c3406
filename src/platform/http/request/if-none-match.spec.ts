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

describe('namesEntityTag, as a conditional read compares a version', () => {
  it.each([
    ['"3"', true],
    ['W/"3"', true],
    ['"2", "3"', true],
    ['"2",\t"3"', true],
    ['  *  ', true],
    ['"30"', false],
    ['"2"', false],
    ['W/"2", "4"', false],
    ['3', false],
    ['"3', false],
  ])('reads If-None-Match: %s as %s for the version 3', (field, named) => {
    expect(namesEntityTag(field, '3')).toBe(named);
  });
});
