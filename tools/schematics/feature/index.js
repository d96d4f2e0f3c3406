// The feature schematic behind `npm run generate:feature -- <name> [--parent <feature>]
// [--owned-by organization]` (docs/extending.md): a whole resource (list, get, create, update,
// delete), rendered from the templates under files/ with Angular devkit's template engine,
// and makes the two edits a feature needs outside its folder (its scope line, its entry in the
// root module's FEATURES), placed by TypeScript's parser (source-edits.js).
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { strings } = require('@angular-devkit/core');
const {
  apply,
  applyTemplates,
  chain,
  filter,
  mergeWith,
  move,
  SchematicsException,
  url,
} = require('@angular-devkit/schematics');
const { nextTimestamp } = require('../next-timestamp');
const { addImport, appendToArray, appendToObject } = require('./source-edits');
const { pluralOf, singularOf, wordsOf, withArticle } = require('./english');
const { nameProblem } = require('./names');

/**
 * The bound of the generated `name` field, in Unicode code points: the domain's rule, the DTO's
 * and the column's `varchar(n)` (which PostgreSQL counts in characters, not bytes) are all this.
 */
const NAME_MAX = 100;

/**
 * What the child feature needs to know of its parent, read from the parent's migrations: that its
 * table exists (the child's foreign key refers to it), and whether its rows are deleted by a
 * `deleted_at` (then a deleted parent is not found, as its own routes say). Nothing of the
 * parent's code is run; the generated code imports the parent's ports only (PORTED_PARENT).
 */
function parentFacts(root, parent) {
  const folder = join(root, 'src', parent);
  const migrations = join(folder, 'infrastructure', 'migrations');
  let sql;
  try {
    sql = readdirSync(migrations)
      .map((file) => readFileSync(join(migrations, file), 'utf8'))
      .join('\n');
  } catch {
    throw new SchematicsException(
      `--parent ${parent}: no src/${parent}/infrastructure/migrations (name a feature folder, such as pets).`,
    );
  }
  const table = strings.underscore(parent);
  if (!sql.includes(`CREATE TABLE "${table}"`)) {
    throw new SchematicsException(
      `--parent ${parent}: its migrations create no table "${table}"; nest under a feature whose table is named as its folder.`,
    );
  }
  const column = (name) =>
    new RegExp(`(CREATE|ALTER) TABLE "${table}"[^;\`]*(ADD COLUMN )?"${name}"`).test(sql);
  return { table, softDeleted: column('deleted_at'), owned: column('organization_id') };
}

/** The templates of a nested feature only: the parent's lookup port, its adapter, and its path. */
const PARENT_ONLY = /__parentName__/;
/** The lookup port and its adapter: for a parent that publishes no port of its own. */
const LOOKUP_ONLY = /__parentName__-lookup/;

/**
 * The parent that answers "which organisation owns this one" through its own port (docs/adr/0068):
 * the pets feature's PetOwnership, exported by its PetPortsModule. A feature nested under it asks
 * that port and writes no lookup of its own, nor any SQL that reads the parent's table.
 */
const PORTED_PARENT = 'pets';

/** As event-types.ts checks them at start-up: checked here first, to name the fix. */
const EVENT_NAME = /^[a-z][a-z0-9]*(\.[a-z][a-z0-9_]*)+$/;
const EVENT_NAME_MAX = 32;

function feature(options) {
  const name = options.name;
  const plural = pluralOf(name);
  return (tree) => {
    const problem = nameProblem(name);
    if (problem) throw new SchematicsException(problem);
    if (options.ownedBy !== undefined && options.ownedBy !== 'organization') {
      throw new SchematicsException(
        `--owned-by ${options.ownedBy}: only "organization" (staff of the owning organisation).`,
      );
    }
    const owned = options.ownedBy === 'organization';
    if (tree.exists(`src/${plural}/${plural}.module.ts`)) {
      throw new SchematicsException(`src/${plural} exists already.`);
    }
    const parent = options.parent;
    if (parent !== undefined && !tree.exists(`src/${parent}/${parent}.module.ts`)) {
      throw new SchematicsException(`--parent ${parent}: no feature src/${parent}.`);
    }
    const facts = parent === undefined ? undefined : parentFacts(process.cwd(), parent);
    const parentName = parent === undefined ? '' : singularOf(parent);
    const scope = `${plural}:write`;
    // `<object>.<what happened>`: the object without its hyphens (medical-note: medicalnote).
    const eventObject = name.replace(/-/g, '');
    const eventName = `${eventObject}.created`;
    for (const type of ['created', 'updated', 'deleted'].map((what) => `${eventObject}.${what}`)) {
      if (!EVENT_NAME.test(type) || type.length > EVENT_NAME_MAX) {
        throw new SchematicsException(
          `The event type "${type}" would be longer than ${EVENT_NAME_MAX} characters: choose a shorter name.`,
        );
      }
    }
    const petOwnership = parent === PORTED_PARENT;
    const words = wordsOf(name);
    const parentWords = wordsOf(parentName);
    const templates = apply(url('./files'), [
      // The parent's templates only for a nested feature; its lookup only when the parent has no
      // port of its own.
      filter((path) => parent !== undefined || !PARENT_ONLY.test(path)),
      filter((path) => !petOwnership || !LOOKUP_ONLY.test(path)),
      applyTemplates({
        ...strings,
        name,
        plural,
        scope,
        eventObject,
        eventName,
        nameMax: NAME_MAX,
        owned,
        // Ownership of the parent: its rows carry the organisation that owns them.
        parentOwned: facts?.owned ?? false,
        // What sentences say: `a medical note`, `medical notes`, `an application`.
        words,
        aWords: withArticle(words),
        pluralWords: wordsOf(plural),
        parentWords,
        aParentWords: parent === undefined ? '' : withArticle(parentWords),
        idParam: `${strings.camelize(name)}Id`,
        parent: parent ?? '',
        parentName,
        parentTable: facts?.table ?? '',
        parentSoftDeleted: facts?.softDeleted ?? false,
        // The parent is the pets feature: asked through PetOwnership (PetPortsModule).
        petOwnership,
        // The route: `v1/pets/:petId/vaccinations`, or `v1/kennels`.
        route:
          parent === undefined
            ? `v1/${plural}`
            : `v1/${parent}/:${strings.camelize(parentName)}Id/${plural}`,
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
