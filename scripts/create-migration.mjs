// npm run migration:create -- <name> --feature=<folder>: an empty migration at the next timestamp
// in src/<folder>/infrastructure/migrations/, from the local schematic tools/schematics.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const [name, ...rest] = process.argv.slice(2);
const feature = rest.find((arg) => arg.startsWith('--feature='))?.slice('--feature='.length);
if (!name || !feature) {
  console.error('Usage: npm run migration:create -- <name> --feature=<folder> (kebab-case)');
  process.exit(2);
}
const require = createRequire(import.meta.url);
execFileSync(
  process.execPath,
  [
    require.resolve('@angular-devkit/schematics-cli/bin/schematics.js'),
    './tools/schematics/collection.json:migration',
    name,
    `--feature=${feature}`,
    '--no-dry-run',
  ],
  { stdio: 'inherit' },
);
