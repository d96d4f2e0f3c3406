// The feature schematic behind `npm run generate:feature -- <name>` (docs/extending.md): renders
// the templates under files/ with Angular devkit's template engine, and makes the two edits a
// feature needs outside its folder (its scope line, its entry in the root module's FEATURES),
// placed by TypeScript's parser (source-edits.js).
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
const { addImport, appendToArray, appendToObject } = require('./source-edits');

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
    const edit = (tree, path, change) => {
      const text = tree.read(path)?.toString('utf8');
      if (text === undefined) throw new SchematicsException(`No ${path}.`);
      try {
        tree.overwrite(path, change(text));
      } catch (error) {
        throw new SchematicsException(error.message);
      }
    };
    return chain([
      mergeWith(templates),
      (tree) => {
        // The scope: one line in the table, not a default (keys get it when issued with it).
        edit(tree, 'src/common/scopes.ts', (text) =>
          appendToObject('src/common/scopes.ts', text, 'SCOPE_TABLE', scope, '{ default: false }'),
        );
        // The feature: the root module's one import, and its entry in FEATURES.
        edit(tree, 'src/app.module.ts', (text) =>
          appendToArray(
            'src/app.module.ts',
            addImport(
              'src/app.module.ts',
              text,
              `import { ${Module} } from './${plural}/${plural}.module';`,
            ),
            'FEATURES',
            Module,
          ),
        );
        return tree;
      },
    ]);
  };
}

module.exports = { feature };
