// npm run generate:feature -- <name>: a feature module in the house's layers, from the local
// schematic tools/schematics (Angular devkit, as Nest's own generators), then formatted as the
// lint expects. The name is the record, singular, in kebab-case; the folder is its plural.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const name = process.argv[2];
if (!name || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
  console.error('Usage: npm run generate:feature -- <name> (singular, kebab-case: vaccination)');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const cli = require.resolve('@angular-devkit/schematics-cli/bin/schematics.js');
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });

run(process.execPath, [cli, './tools/schematics/collection.json:feature', name, '--no-dry-run']);
const plural = `${name}s`;
run(process.execPath, [
  require.resolve('prettier/bin/prettier.cjs'),
  '--log-level=warn',
  '--write',
  `src/${plural}`,
  `test/${plural}.e2e-spec.ts`,
  `test/fakes/in-memory-${name}.repository.ts`,
  'src/common/scopes.ts',
  'src/app.module.ts',
]);
console.log(`Generated src/${plural}: next, docs/extending.md ("After generating").`);
