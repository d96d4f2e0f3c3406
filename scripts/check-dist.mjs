// Fails when the production build (dist/) holds a test double or a spec: those live under test/,
// in the libraries' testing/ entry points, and in *.spec.ts files, none of which may ship.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../dist', import.meta.url).pathname;
const TEST_ONLY = /(^|\/)(test|testing|fakes)\/|\.spec\.js$|\.contract\.js$|in-memory-.*\.js$/;

const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => relative(root, join(entry.parentPath, entry.name)));
const shipped = files.filter((file) => TEST_ONLY.test(file));
if (files.length === 0 || shipped.length > 0) {
  console.error(
    files.length === 0
      ? 'dist/ is empty: build first.'
      : `Test code in dist/:\n  ${shipped.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`dist/ holds ${files.length} files and no test code.`);
