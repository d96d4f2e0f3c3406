import { parseIfMatch } from '../request/entity-tags';
import { versionEntityTag, versionPreconditionOf } from './version-entity-tag';

const precondition = (header: string) => versionPreconditionOf(parseIfMatch(header)!);

describe("a versioned resource's entity tag", () => {
  it('is its version, quoted', () => {
    expect(versionEntityTag({ version: 3 })).toBe('"3"');
  });

  it('reads If-Match as the versions it names', () => {
    expect(precondition('"3"')).toEqual({ anyVersion: false, versions: [3] });
    expect(precondition('"3", "5"')).toEqual({ anyVersion: false, versions: [3, 5] });
    expect(precondition('*')).toEqual({ anyVersion: true });
    expect(versionPreconditionOf(undefined)).toBeUndefined();
  });

  it('never matches a weak tag, nor a tag that is no version', () => {
    for (const header of ['W/"3"', '"abc"', '"0"', '"03"', '"-1"', '"2147483648"', '""']) {
      expect(precondition(header)).toEqual({ anyVersion: false, versions: [] });
    }
  });

  it('matches the one strong member of a mixed list', () => {
    expect(precondition('W/"3", "abc", "4"')).toEqual({ anyVersion: false, versions: [4] });
  });
});
