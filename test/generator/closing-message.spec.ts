// `npm run generate:feature` ends by naming sections of docs/extending.md: each must be one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

describe("the generator's closing message", () => {
  it('names only sections docs/extending.md has', () => {
    const script = readFileSync(join(root, 'scripts/generate-feature.mjs'), 'utf8');
    const next = /const NEXT = \[([\s\S]*?)\];/.exec(script)?.[1];
    const sections = [...(next ?? '').matchAll(/'([^']*)'|"([^"]*)"/g)].map(([, a, b]) => a ?? b);
    expect(sections.length).toBeGreaterThan(1);
    const headings = readFileSync(join(root, 'docs/extending.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .map((line) => line.replace(/^#+\s*/, ''));
    expect(sections.filter((section) => !headings.includes(section))).toEqual([]);
  });
});
