import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

/**
 * The Node.js versions the project supports are said in four places, which must agree
 * (CONTRACT "The first hour"): the README names them, `engines.node` admits them and no other
 * line, CI tests each (the whole suite on the image's and the oldest, the specs that depend on the
 * runtime on the others), and the image runs one of them.
 */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The README's sentence: `22 (22.22.3+), 24 (24.15+) or 26`, as major → least version. */
function readmeVersions(): Map<number, string> {
  const sentence = read('README.md').match(
    /Node\.js is the only requirement: ([^,]+(?:, [^,]+)*?), each tested/,
  );
  if (!sentence) throw new Error('README.md no longer names the supported Node.js versions');
  const versions = new Map<number, string>();
  for (const [, major, least] of sentence[1].matchAll(/(\d+)(?: \((\d+(?:\.\d+)*)\+\))?/g)) {
    versions.set(Number(major), semver.coerce(least ?? major)!.version);
  }
  return versions;
}

/** The majors `.ci/run` runs the lines matching `pattern` on: the PATH it exports, or the line's. */
function majorsInCi(pattern: RegExp): Set<number> {
  const script = read('.ci/run');
  const fallback = script.match(/^export PATH="\$NODE_(\d+)_BIN:\$PATH"$/m);
  if (!fallback) throw new Error('.ci/run no longer exports the Node.js its steps run on');
  const tested = new Set<number>();
  for (const line of script.split('\n')) {
    // Commands only: not comments, nor the steps' titles.
    if (!pattern.test(line) || /^\s*(#|step )/.test(line)) continue;
    tested.add(Number(line.match(/\$NODE_(\d+)_BIN/)?.[1] ?? fallback[1]));
  }
  return tested;
}

/** The image's Node.js majors, from the Dockerfile's stages. */
const imageMajors = () =>
  [...read('Dockerfile').matchAll(/^FROM node:(\d+)/gm)].map(([, major]) => Number(major));

describe('the supported Node.js versions', () => {
  const readme = readmeVersions();
  const engines: string = JSON.parse(read('package.json')).engines.node;

  it('are named by the README, and Node.js 20 is not among them', () => {
    expect([...readme.keys()]).toEqual([22, 24, 26]);
  });

  it('are what engines.node admits: from each least version on, and no other major', () => {
    for (const [major, least] of readme) {
      expect(semver.satisfies(least, engines)).toBe(true);
      expect(semver.satisfies(`${major}.999.0`, engines)).toBe(true);
      const { minor, patch } = semver.parse(least)!;
      const before = patch > 0 ? `${major}.${minor}.${patch - 1}` : `${major}.${minor - 1}.999`;
      if (minor > 0 || patch > 0) expect(semver.satisfies(before, engines)).toBe(false);
    }
    for (let major = 16; major < 26; major++) {
      if (!readme.has(major)) expect(semver.intersects(engines, `^${major}.0.0`)).toBe(false);
    }
  });

  it("run the whole suite in CI on the image's and on the oldest, the runtime's specs on the rest", () => {
    const oldest = Math.min(...readme.keys());
    const whole = majorsInCi(/\bnpm test\b/);
    expect([...whole].sort()).toEqual([...new Set([oldest, ...imageMajors()])].sort());
    const runtimeSensitive = majorsInCi(/RUNTIME_SENSITIVE\[@\]/);
    for (const major of readme.keys()) {
      expect([major, whole.has(major) || runtimeSensitive.has(major)]).toEqual([major, true]);
    }
  });

  it('name runtime-sensitive specs that exist (test/runtime-sensitive.txt)', () => {
    const listed = read('test/runtime-sensitive.txt')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    expect(listed.length).toBeGreaterThan(0);
    for (const file of listed) expect([file, existsSync(join(ROOT, file))]).toEqual([file, true]);
  });

  it("include the image's, which the README names as such", () => {
    const images = imageMajors();
    expect(images.length).toBeGreaterThan(0);
    for (const major of images) expect(readme.has(major)).toBe(true);
    expect(read('README.md')).toContain(`(${images[0]} is the image's)`);
  });
});
