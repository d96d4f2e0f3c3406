import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

// The refusal `npm start` and `npm test` begin with (scripts/supported-node.cjs): plain CommonJS
// with a reader of its own for engines.node, so that it runs before `npm install` and on any Node.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { satisfies, described } = require('../../scripts/supported-node.cjs') as {
  satisfies(version: string, range: string): boolean;
  described(range: string): string;
};

const ROOT = join(__dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const engines: string = packageJson.engines.node;

describe('the refusal of an unsupported Node.js (scripts/supported-node.cjs)', () => {
  it('admits exactly what engines.node admits, as semver reads it', () => {
    const versions = [];
    for (let major = 14; major <= 30; major++) {
      for (const minor of [0, 1, 14, 15, 16, 21, 22, 23, 99]) {
        for (const patch of [0, 2, 3, 4]) versions.push(`${major}.${minor}.${patch}`);
      }
    }
    for (const version of versions) {
      expect([version, satisfies(`v${version}`, engines)]).toEqual([
        version,
        semver.satisfies(version, engines),
      ]);
    }
  });

  it('names the supported versions as the README does', () => {
    expect(described(engines)).toBe('22 (22.22.3+), 24 (24.15+) or 26+');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(
      '22 (22.22.3+), 24 (24.15+) or 26',
    );
  });

  it('runs first in npm start and npm test', () => {
    for (const script of ['start', 'test']) {
      expect(packageJson.scripts[script]).toMatch(/^node scripts\/supported-node\.cjs && /);
    }
  });
});
