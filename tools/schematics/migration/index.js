// The migration schematic behind `npm run migration:create -- <name> --feature=<folder>`: an
// empty migration, at the next timestamp, where src/migrations.ts finds it.
const { strings } = require('@angular-devkit/core');
const {
  apply,
  applyTemplates,
  mergeWith,
  move,
  SchematicsException,
  url,
} = require('@angular-devkit/schematics');
const { nextTimestamp } = require('../next-timestamp');

function migration(options) {
  return (tree) => {
    if (!tree.exists(`src/${options.feature}/${options.feature}.module.ts`)) {
      throw new SchematicsException(`No feature src/${options.feature}.`);
    }
    return mergeWith(
      apply(url('./files'), [
        applyTemplates({ ...strings, ...options, timestamp: nextTimestamp(process.cwd()) }),
        move('.'),
      ]),
    );
  };
}

module.exports = { migration };
