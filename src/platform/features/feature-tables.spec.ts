import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { featureOf, FeatureOptions } from './feature';

/**
 * Each feature's SQL touches only the tables its `@Feature` declares (docs/extending.md, "Declared
 * tables"): the coupling between features that the import rules cannot see (a join, a trigger, a
 * foreign key on another feature's table) is stated in the module, and a change of it shows in
 * review. Read from the source, migrations included: the SQL of every string literal.
 */
const SRC = join(__dirname, '..', '..');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** String literals (template, single-quoted): where SQL is; comments and code are not read. */
const LITERAL = /`(?:[^`\\]|\\.)*`|'(?:[^'\\\n]|\\.)*'/g;
/**
 * The source without its block comments and whole-line comments: a backtick or a quote in prose
 * (`near`, an organisation's) would otherwise start a "literal" and put every one after it out of
 * step.
 */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
/** A table after the words that name one; not a function (`FROM unnest(`) nor an alias (`w.id`). */
const TABLE_AFTER =
  /\b(?:FROM|JOIN|INTO|UPDATE|REFERENCES|(?:CREATE|ALTER|DROP)\s+TABLE(?:\s+IF\s+(?:NOT\s+)?EXISTS)?|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)(?![a-z0-9_(.])"?/g;
/** The table of an index or a trigger: `ON "pets" USING gist`, `ON pets FOR EACH ROW`. */
const TABLE_OF_INDEX_OR_TRIGGER =
  /\bON\s+"?([a-z_][a-z0-9_]*)"?\s+(?:USING|\(|FOR|REFERENCING|AFTER|BEFORE)/g;
/** Names a statement gives itself: CTEs (`"due" AS (`) and a trigger's transition tables. */
const LOCAL_NAMES = [
  /"?([a-z_][a-z0-9_]*)"?\s+AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/gi,
  /\bTABLE\s+AS\s+"?([a-z_][a-z0-9_]*)/g,
];

/**
 * The tables the SQL of `directory` touches, each with the files that do. Local names are the
 * folder's, not a file's: a migration may redefine a trigger's function, whose transition tables
 * an earlier one named.
 */
function tablesTouched(
  directory: string,
  patterns = [TABLE_AFTER, TABLE_OF_INDEX_OR_TRIGGER],
  read = (file: string) => file.length > 0,
): Map<string, string[]> {
  const sqlOf = new Map(
    sourceFiles(directory)
      .filter(read)
      .map((file) => [
        file,
        (withoutComments(readFileSync(file, 'utf8')).match(LITERAL) ?? []).join('\n'),
      ]),
  );
  const local = new Set(
    [...sqlOf.values()].flatMap((sql) =>
      LOCAL_NAMES.flatMap((pattern) => [...sql.matchAll(pattern)].map((m) => m[1])),
    ),
  );
  const touched = new Map<string, string[]>();
  for (const [file, sql] of sqlOf) {
    for (const pattern of patterns) {
      for (const [, table] of sql.matchAll(pattern)) {
        if (local.has(table)) continue;
        const files = touched.get(table) ?? [];
        const name = relative(SRC, file);
        if (!files.includes(name)) files.push(name);
        touched.set(table, files);
      }
    }
  }
  return touched;
}

/** A table a statement writes: `INSERT INTO`, `UPDATE`, `DELETE FROM`, `TRUNCATE`. */
const TABLE_WRITTEN =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)(?![a-z0-9_(.])"?/g;

/**
 * The tables the running code of `directory` writes (its migrations apart: they are history, and
 * a migration's trigger writes what its feature owns), each with the files that do.
 */
const tablesWritten = (directory: string) =>
  tablesTouched(directory, [TABLE_WRITTEN], (file) => !/\/migrations\//.test(file));

/**
 * Writes of another feature's table that still wait to move behind that feature's port (issue
 * 46, docs/adr/0068): this list only shrinks. A new one fails the spec below.
 */
const WRITES_TO_MOVE = [
  // A pet names a category by id, which exists from then on (ADR 0029): not a pet's record.
  'pets writes categories (pets/infrastructure/sql-pet.repository.ts)',
];

/** Every feature of src/: its folder and its declaration. */
async function features(): Promise<{ folder: string; options: FeatureOptions }[]> {
  const found: { folder: string; options: FeatureOptions }[] = [];
  for (const entry of readdirSync(SRC, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = join(SRC, entry.name);
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.module.ts'))) {
      const exported = (await import(join(folder, name))) as Record<string, unknown>;
      for (const options of Object.values(exported).map(featureOf)) {
        if (options) found.push({ folder, options });
      }
    }
  }
  return found;
}

describe('the tables each feature declares', () => {
  let all: { folder: string; options: FeatureOptions }[];
  beforeAll(async () => (all = await features()));

  it('finds the features, and the tables of their SQL', () => {
    expect(all.map(({ folder }) => relative(SRC, folder))).toEqual(
      expect.arrayContaining(['pets', 'orders', 'webhooks', 'event-feed']),
    );
    // One concept, one name (issue 46): the orders feature is named after orders.
    expect(all.map(({ folder }) => relative(SRC, folder))).not.toContain('adoptions');
    expect([...tablesTouched(join(SRC, 'webhooks')).keys()].sort()).toEqual([
      'api_keys',
      'events',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoints',
      'webhook_fan_out',
    ]);
  });

  it('holds every table its SQL touches, and none it does not touch', () => {
    const problems = all.flatMap(({ folder, options }) => {
      const declared = [...options.tables.owns, ...(options.tables.uses ?? [])];
      const touched = tablesTouched(folder);
      return [
        ...[...touched]
          .filter(([table]) => !declared.includes(table))
          .map(
            ([table, files]) =>
              `${relative(SRC, folder)} touches ${table} undeclared (${files.join(', ')})`,
          ),
        ...declared
          .filter((table) => !touched.has(table))
          .map(
            (table) => `${relative(SRC, folder)} declares ${table}, which its SQL never touches`,
          ),
      ];
    });
    expect(problems).toEqual([]);
  });

  it("changes another feature's records only through that feature's ports: no SQL writes a table its feature does not own", () => {
    const foreignWrites = all.flatMap(({ folder, options }) =>
      [...tablesWritten(folder)]
        .filter(([table]) => !options.tables.owns.includes(table))
        .map(([table, files]) => `${relative(SRC, folder)} writes ${table} (${files.join(', ')})`),
    );
    expect(foreignWrites).toEqual(WRITES_TO_MOVE);
  });

  it('keeps pet concepts in the pets feature: the shared kernel holds none (issue 46)', () => {
    const named = (folder: string, pattern: RegExp) =>
      sourceFiles(join(SRC, folder))
        .map((file) => relative(SRC, file))
        .filter((file) => pattern.test(file));
    // The one left: the declaration of the `pet.*` event types, whose values an order's domain
    // records (a domain takes only types from another feature's ports, docs/adr/0068).
    expect(named('common', /(^|\/)(pet-[^/]*|shelter-pets)\.ts$/)).toEqual([
      join('common', 'events', 'pet-events.ts'),
    ]);
    expect(named('platform', /(^|\/)pet-[^/]*\.ts$/)).toEqual([]);
  });

  it('gives each table one owner, which creates it', () => {
    const owners = new Map<string, string[]>();
    for (const { folder, options } of all) {
      for (const table of options.tables.owns) {
        owners.set(table, [...(owners.get(table) ?? []), relative(SRC, folder)]);
        const created = sourceFiles(folder).some((file) =>
          new RegExp(`CREATE TABLE (IF NOT EXISTS )?"?${table}"?[\\s(]`).test(
            readFileSync(file, 'utf8'),
          ),
        );
        expect({ table, owner: relative(SRC, folder), created }).toEqual({
          table,
          owner: relative(SRC, folder),
          created: true,
        });
      }
    }
    expect([...owners].filter(([, folders]) => folders.length > 1)).toEqual([]);
  });
});
