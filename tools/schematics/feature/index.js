// The feature schematic behind `npm run generate:feature -- <name>` (docs/extending.md): renders
// the templates under files/ with Angular devkit's template engine, and makes the two edits a
// feature needs outside its folder (its scope line, its entry in the root module's FEATURES).
const { strings } = require('@angular-devkit/core');
const {
  apply,
  applyTemplates,
  chain,
  mergeWith,
  move,
  SchematicsException,
  url,
} = require('@angular-devkit/schematics');
const { nextTimestamp } = require('../next-timestamp');

function insertBefore(tree, path, marker, text) {
  const content = tree.read(path)?.toString('utf8');
  if (content === undefined || !content.includes(marker)) {
    throw new SchematicsException(
      `${path} no longer holds "${marker}": add ${text.trim()} by hand.`,
    );
  }
  tree.overwrite(path, content.replace(marker, text + marker));
}

function feature(options) {
  const name = options.name;
  const plural = `${name}s`;
  return (tree) => {
    if (tree.exists(`src/${plural}/${plural}.module.ts`)) {
      throw new SchematicsException(`src/${plural} exists already.`);
    }
    const scope = `${plural}:write`;
    const templates = apply(url('./files'), [
      applyTemplates({
        ...strings,
        name,
        plural,
        scope,
        timestamp: nextTimestamp(process.cwd()),
      }),
      move('.'),
    ]);
    const Module = `${strings.classify(plural)}Module`;
    return chain([
      mergeWith(templates),
      (tree) => {
        // The scope: one line in the table, not a default (keys get it when issued with it).
        insertBefore(
          tree,
          'src/common/scopes.ts',
          '} as const satisfies',
          `  '${scope}': { default: false },\n`,
        );
        // The feature: the root module's one import.
        insertBefore(
          tree,
          'src/app.module.ts',
          'import { featuresAmong }',
          `import { ${Module} } from './${plural}/${plural}.module';\n`,
        );
        insertBefore(tree, 'src/app.module.ts', '];\n\n/** The modules the public', `, ${Module}`);
        return tree;
      },
    ]);
  };
}

module.exports = { feature };
