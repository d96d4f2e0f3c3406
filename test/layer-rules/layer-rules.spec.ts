import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const fixtures = join(__dirname, 'fixtures');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(root, '.dependency-cruiser.js')) as {
  forbidden: { name: string }[];
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** What `npm run lint`'s dependency-cruiser says of the fixture tree, with the project's rules. */
function violations(): string[] {
  const json = execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
      'src',
      'libs',
      '--config',
      join(root, '.dependency-cruiser.js'),
      '--output-type',
      'json',
    ],
    { cwd: fixtures, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const { summary } = JSON.parse(json) as { summary: { violations: Violation[] } };
  return summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();
}

/**
 * The layer rules themselves: a fixture tree with a feature named nowhere in the rules
 * (src/vaccinations) breaks each rule once, and each break must be reported, nothing else.
 */
describe('the layer rules (.dependency-cruiser.js)', () => {
  const found = violations();

  it.each([
    'platform-knows-no-features: src/platform/imports-a-feature.ts -> src/vaccinations/domain/vaccination.ts',
    'features-are-independent: src/vaccinations/application/imports-another-feature.ts -> src/pets/domain/pet.ts',
    'features-are-independent: src/vaccinations/infrastructure/imports-another-features-adapter.ts -> src/pets/infrastructure/sql-pet-owners.ts',
    'domain-is-plain: src/vaccinations/domain/imports-infrastructure.ts -> src/vaccinations/infrastructure/vaccination.orm-entity.ts',
    'domain-takes-only-types-from-ports: src/vaccinations/domain/imports-a-port-at-run-time.ts -> src/pets/application/ports/pet-types.ts',
    'application-knows-no-adapters: src/vaccinations/application/imports-http.ts -> src/vaccinations/http/vaccination.dto.ts',
    'infrastructure-knows-no-http: src/vaccinations/infrastructure/imports-http.ts -> src/vaccinations/http/vaccination.dto.ts',
    'common-is-plain: src/common/imports-platform.ts -> src/platform/clock.ts',
    'nothing-knows-webhooks: src/imports-webhooks.ts -> src/webhooks/domain/endpoint.ts',
    'libs-never-import-src: libs/one/src/imports-src.ts -> src/common/id.ts',
    'libs-are-independent: libs/two/src/imports-another-lib.ts -> libs/one/src/imports-src.ts',
    'the-service-never-loads-libvips: src/photos/infrastructure/imports-the-image-pipeline.ts -> src/photos/infrastructure/image-pipeline.ts',
  ])('reports %s', (violation) => {
    expect(found).toContain(violation);
  });

  it('reports an import cycle', () => {
    expect(found.some((violation) => violation.startsWith('no-circular: '))).toBe(true);
  });

  it('reports nothing the fixtures do not break on purpose (the allowed arrows stay allowed)', () => {
    const allowed = found.filter((violation) => !/: \S*(imports-|circular-)/.test(violation));
    expect(allowed).toEqual([]);
  });

  it('has a fixture for every rule', () => {
    const proven = new Set(found.map((violation) => violation.split(':')[0]));
    expect(config.forbidden.map(({ name }) => name).filter((name) => !proven.has(name))).toEqual(
      [],
    );
  });
});
