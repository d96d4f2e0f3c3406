import { opaqueOf, representationTag } from './representation-tag';

describe('representationTag', () => {
  const page = JSON.stringify([{ id: 1, name: 'Rex' }]);

  it('is 128 bits of base64url, the same for the same bytes', () => {
    expect(representationTag(page, undefined)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(representationTag(page, undefined)).toBe(representationTag(`${page}`, undefined));
  });

  it('differs for another body, one byte apart', () => {
    expect(representationTag(page, undefined)).not.toBe(
      representationTag(page.replace('Rex', 'Rez'), undefined),
    );
  });

  it('differs when the page gains or changes its Link, the body the same', () => {
    const next = '<https://api.example/v1/pets?after=1>; rel="next"';
    const tags = new Set([
      representationTag(page, undefined),
      representationTag(page, next),
      representationTag(page, next.replace('after=1', 'after=2')),
      representationTag(page, ''),
    ]);
    expect(tags.size).toBe(4);
  });
});

describe('opaqueOf', () => {
  it.each([
    ['"3"', '3'],
    ['"abc_-"', 'abc_-'],
    ['""', ''],
    ['W/"3"', undefined],
    ['3', undefined],
    ['"3', undefined],
    ['"a"b"', undefined],
  ])('reads %s as %s', (tag, opaque) => {
    expect(opaqueOf(tag)).toBe(opaque);
  });
});
