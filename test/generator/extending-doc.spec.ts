// docs/extending.md names code: each file or folder it names exists (the generated example's,
// `src/vaccinations/…`, and placeholders such as `<feature>` apart), and the recipes the team
// missed are there. A rename that leaves the guide pointing nowhere fails here.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const guide = readFileSync(join(root, 'docs/extending.md'), 'utf8');

describe('docs/extending.md', () => {
  it('names only files and folders the project has', () => {
    const named = [...guide.matchAll(/`((?:src|test|tools|scripts|libs)\/[^`\s]*)`/g)].map(
      ([, path]) => path,
    );
    const checked = named.filter((path) => !/[<…]|vaccination/.test(path));
    expect(checked.length).toBeGreaterThan(10);
    expect(checked.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it.each([
    'A nested resource an organisation owns',
    'Add an error',
    'The scopes table',
    'Run a confined suite',
  ])('has the section "%s"', (section) => {
    expect(guide).toMatch(new RegExp(`^#+ ${section}$`, 'm'));
  });

  it('says what a confined run needs: TEST_PORTS of 100 ports, REDIS_URL, the prefixes', () => {
    const section = guide.slice(guide.indexOf('### Run a confined suite'));
    for (const word of [
      'TEST_PORTS',
      'at least 100 ports',
      'REDIS_URL',
      'TEST_DATABASE_PREFIX',
      'TEST_REDIS_KEY_PREFIX',
    ]) {
      expect(section).toContain(word);
    }
  });
});
