// npm run generate:feature -- <name> [--parent <feature>] [--owned-by organization]: a feature
// module in the house's layers, a whole resource (list, get, create, update, delete), from the
// local schematic tools/schematics (Angular devkit, as Nest's own generators), then formatted as
// the lint expects. The name is the record, singular, in kebab-case; the folder is its plural.
// With --parent (a feature folder: pets), its routes nest under the parent's
// (/v1/pets/{petId}/vaccinations); with --owned-by organization, each record belongs to the
// organisation of the key that created it, and only that organisation's staff read and change it.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const usage = () => {
  console.error(
    'Usage: npm run generate:feature -- <name> [--parent <feature>] [--owned-by organization] (singular, kebab-case: vaccination --parent pets)',
  );
  process.exit(2);
};
const args = process.argv.slice(2);
let name;
let parent;
let ownedBy;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--parent') parent = args[++i];
  else if (args[i].startsWith('--parent=')) parent = args[i].slice('--parent='.length);
  else if (args[i] === '--owned-by') ownedBy = args[++i];
  else if (args[i].startsWith('--owned-by=')) ownedBy = args[i].slice('--owned-by='.length);
  else if (name === undefined) name = args[i];
  else usage();
}
if (!name || !KEBAB.test(name) || (parent !== undefined && !KEBAB.test(parent))) usage();
if (ownedBy !== undefined && ownedBy !== 'organization') usage();

const require = createRequire(import.meta.url);
const { pluralOf } = require('../tools/schematics/feature/english.js');
const { nameProblem } = require('../tools/schematics/feature/names.js');
// Checked here first, so that the refusal is one line rather than the schematic's stack.
const problem = nameProblem(name);
if (problem) {
  console.error(problem);
  process.exit(2);
}
const cli = require.resolve('@angular-devkit/schematics-cli/bin/schematics.js');
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });

run(process.execPath, [
  cli,
  './tools/schematics/collection.json:feature',
  name,
  ...(parent ? [`--parent=${parent}`] : []),
  ...(ownedBy ? [`--owned-by=${ownedBy}`] : []),
  '--no-dry-run',
]);
const plural = pluralOf(name);
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
// The sections of docs/extending.md to read next, by their headings (test/generator checks they exist).
const NEXT = [
  '2. Make it yours',
  'Add an event type',
  "Read another feature's data",
  '3. Check, as CI will',
];
console.log(
  [
    `Generated src/${plural}${parent ? `, nested under ${parent}` : ''}${ownedBy ? ', owned by an organisation' : ''}. Next, docs/extending.md:`,
    ...NEXT.map((section) => `  "${section}"`),
  ].join('\n'),
);
