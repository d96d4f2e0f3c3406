// The generator's names and sentences (tools/schematics/feature/english.js, names.js): a record
// named after a layer is refused with a message saying why and what to do; the folder, the table
// and the scope take the English plural; the text says "an application", "a kennel".
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface English {
  pluralOf(name: string): string;
  singularOf(folder: string): string;
  withArticle(words: string): string;
}
/* eslint-disable @typescript-eslint/no-require-imports */
const english: English = require('../../tools/schematics/feature/english');
const { nameProblem } = require('../../tools/schematics/feature/names') as {
  nameProblem(name: string): string | undefined;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const root = join(__dirname, '..', '..');

describe("the generator's English", () => {
  it.each([
    ['kennel', 'kennels'],
    ['category', 'categories'],
    ['medical-note', 'medical-notes'],
    ['box', 'boxes'],
    ['leash', 'leashes'],
    ['day', 'days'],
    ['person', 'people'],
    ['adoption-application', 'adoption-applications'],
    ['leaf', 'leaves'],
    ['roof', 'roofs'],
    ['vet-diagnosis', 'vet-diagnoses'],
    ['species', 'species'],
    ['status', 'statuses'],
    ['cause', 'causes'],
  ])('the plural of %s is %s, and back', (name, plural) => {
    expect(english.pluralOf(name)).toBe(plural);
    expect(english.singularOf(plural)).toBe(name);
  });

  it.each([
    ['application', 'an application'],
    ['kennel', 'a kennel'],
    ['hour', 'an hour'],
    ['unicorn', 'a unicorn'],
    ['user note', 'a user note'],
    ['owner', 'an owner'],
    ['medical note', 'a medical note'],
  ])('says %s with its article: %s', (words, said) => {
    expect(english.withArticle(words)).toBe(said);
  });
});

describe('the names the generator refuses', () => {
  it.each([
    'application',
    'domain',
    'infrastructure',
    'http',
    'presentation',
    'api',
    'test',
    'common',
    'platform',
    'migration',
  ])('refuses %s, naming the layer or folder it clashes with', (name) => {
    expect(nameProblem(name)).toMatch(new RegExp(`^"${name}" names a layer or a folder`));
  });

  it('accepts a name that says what the record is', () => {
    for (const name of ['adoption-application', 'kennel', 'vaccination', 'medical-note']) {
      expect(nameProblem(name)).toBeUndefined();
    }
  });

  it('npm run generate:feature -- application stops with one line, before writing anything', () => {
    // The tree as it is: the adoption applications feature is src/applications, with its layers.
    const before = listing(join(root, 'src'));
    const run = spawnSync(process.execPath, ['scripts/generate-feature.mjs', 'application'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect({ status: run.status, stderr: run.stderr.trim().split('\n') }).toEqual({
      status: 2,
      stderr: [expect.stringMatching(/^"application" names a layer or a folder of the layout/)],
    });
    expect(listing(join(root, 'src'))).toEqual(before);
  });
});

/** Every file and folder under `folder`, with its modification time: what a run would change. */
function listing(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => `${path} ${statSync(path).mtimeMs}`)
    .sort();
}
