import { parseIfMatch, strongEntityTag } from './entity-tags';

describe('parseIfMatch', () => {
  it('reads one strong tag', () => {
    expect(parseIfMatch('"3"')).toEqual({ any: false, tags: ['3'] });
  });

  it('drops a weak tag: a strong comparison never matches it', () => {
    expect(parseIfMatch('W/"3"')).toEqual({ any: false, tags: [] });
  });

  it('reads a list: any strong member may match', () => {
    expect(parseIfMatch('"1", W/"2" ,"3",\t"4"')).toEqual({ any: false, tags: ['1', '3', '4'] });
  });

  it('reads several header lines, joined with commas, and ignores empty list elements', () => {
    expect(parseIfMatch('"1", , "2",')).toEqual({ any: false, tags: ['1', '2'] });
    expect(parseIfMatch(', "1"')).toEqual({ any: false, tags: ['1'] });
  });

  it('reads * as any current representation', () => {
    expect(parseIfMatch('*')).toEqual({ any: true });
    expect(parseIfMatch(' * ')).toEqual({ any: true });
  });

  it('keeps opaque values it cannot interpret, and the empty tag', () => {
    expect(parseIfMatch('"abc", "", "3x"')).toEqual({ any: false, tags: ['abc', '', '3x'] });
  });

  it('accepts obs-text in a tag', () => {
    expect(parseIfMatch('"\u00e9"')).toEqual({ any: false, tags: ['\u00e9'] });
  });

  it.each([
    ['an unquoted version', '3'],
    ['an unterminated tag', '"3'],
    ['two tags without a comma', '"3" "4"'],
    ['a lowercase weak marker', 'w/"3"'],
    ['a space inside the weak marker', 'W/ "3"'],
    ['* in a list', '*, "1"'],
    ['a quote inside a tag', '"a"b"'],
    ['a control character inside a tag', '"a\u0001"'],
    ['a space inside a tag', '"a b"'],
    ['a character beyond latin1', '"\u0100"'],
    ['nothing', ''],
    ['white space only', ' '],
    ['commas only', ' , ,'],
    ['text after a tag', '"1"x'],
  ])('refuses %s', (_, value) => {
    expect(parseIfMatch(value)).toBeNull();
  });
});

describe('strongEntityTag', () => {
  it('quotes the opaque value', () => {
    expect(strongEntityTag('7')).toBe('"7"');
    expect(parseIfMatch(strongEntityTag('7'))).toEqual({ any: false, tags: ['7'] });
  });
});
