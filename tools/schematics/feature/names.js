// The names a feature may not take: a record named after a layer or a folder of the layout gives
// paths that read as something else (`src/applications/application/application.repository.ts`),
// and a folder the house already has would be overwritten or shadowed.
const { pluralOf } = require('./english');

/**
 * The layers of a feature (docs/extending.md, "The layout"), the folders under src/ and test/
 * that are not features, and words the layout uses for something else.
 */
const RESERVED = [
  'application',
  'domain',
  'infrastructure',
  'http',
  'presentation',
  'api',
  'dto',
  'cli',
  'migration',
  'common',
  'platform',
  'openapi',
  'access',
  'admin',
  'test',
  'fake',
  'support',
  'src',
  'lib',
  'module',
  'feature',
  'event-feed',
  'bench',
  'client',
  'doc',
  'tool',
  'script',
];

/** Why `name` cannot name a feature's record, or undefined when it can. */
function nameProblem(name) {
  const plural = pluralOf(name);
  const clash = RESERVED.find(
    (word) => word === name || pluralOf(word) === plural || word === plural,
  );
  if (clash === undefined) return undefined;
  return (
    `"${name}" names a layer or a folder of the layout ("${clash}"): its files would read as ` +
    `src/${plural}/${clash}/… Choose a name that says what the record is (adoption-application, ` +
    'not application).'
  );
}

module.exports = { RESERVED, nameProblem };
