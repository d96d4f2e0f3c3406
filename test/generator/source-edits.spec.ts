// The feature schematic's edits to the shared files (tools/schematics/feature/source-edits.js):
// whatever layout prettier gave the array or the object, the entry lands as one more element.
import * as ts from 'typescript';

interface SourceEdits {
  appendToArray(path: string, text: string, name: string, element: string): string;
  appendToObject(path: string, text: string, name: string, key: string, value: string): string;
  addImport(path: string, text: string, declaration: string): string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const edits: SourceEdits = require('../../tools/schematics/feature/source-edits');

/** The elements of `const <name> = [...]` as written, and whether the text parses cleanly. */
function elementsOf(text: string, name: string): string[] {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const diagnostics = (source as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
  expect(diagnostics).toEqual([]);
  let found: string[] | undefined;
  source.forEachChild(function visit(node) {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === name) {
      let init = node.initializer!;
      while (ts.isSatisfiesExpression(init) || ts.isAsExpression(init)) init = init.expression;
      const list = ts.isArrayLiteralExpression(init)
        ? init.elements
        : (init as ts.ObjectLiteralExpression).properties;
      found = list.map((element) => element.getText(source));
    }
    node.forEachChild(visit);
  });
  return found!;
}

describe('appendToArray', () => {
  const layouts = {
    'on one line': 'const FEATURES = [PetsModule, AdoptionsModule];\n',
    'wrapped, with a trailing comma': 'const FEATURES = [\n  PetsModule,\n  AdoptionsModule,\n];\n',
    'wrapped, without a trailing comma':
      'const FEATURES = [\n  PetsModule,\n  AdoptionsModule\n];\n',
    'with a comment after the last':
      'const FEATURES = [\n  PetsModule,\n  AdoptionsModule, // last\n];\n',
    'followed by another array':
      'const FEATURES = [PetsModule, AdoptionsModule];\nconst OTHER = [A];\n',
  };

  it.each(Object.entries(layouts))('adds a second and a third module %s', (_, text) => {
    const once = edits.appendToArray('app.module.ts', text, 'FEATURES', 'KennelsModule');
    const twice = edits.appendToArray('app.module.ts', once, 'FEATURES', 'VaccinationsModule');
    // No hole (`, ,`, `[, X]`): a sparse array is what no-sparse-arrays refuses.
    expect(elementsOf(twice, 'FEATURES')).toEqual([
      'PetsModule',
      'AdoptionsModule',
      'KennelsModule',
      'VaccinationsModule',
    ]);
    expect(twice).not.toMatch(/,\s*,|\[\s*,/);
  });

  it('adds the first element to an empty array', () => {
    const text = edits.appendToArray('app.module.ts', 'const FEATURES = [];\n', 'FEATURES', 'A');
    expect(elementsOf(text, 'FEATURES')).toEqual(['A']);
  });

  it('refuses a module it holds already, or a file without the array', () => {
    expect(() =>
      edits.appendToArray('app.module.ts', 'const FEATURES = [A];', 'FEATURES', 'A'),
    ).toThrow('holds A already');
    expect(() =>
      edits.appendToArray('app.module.ts', 'const MODULES = [A];', 'FEATURES', 'B'),
    ).toThrow('add B by hand');
  });
});

describe('appendToObject', () => {
  const table = [
    'const SCOPE_TABLE = {',
    "  'pets:read': { default: true },",
    '  // Why this one is not a default.',
    "  'webhooks:manage': { default: false },",
    '} as const satisfies Record<string, { default: boolean }>;',
    '',
  ].join('\n');

  it('adds a line after the last, through `as const satisfies`, twice', () => {
    const once = edits.appendToObject(
      'scopes.ts',
      table,
      'SCOPE_TABLE',
      'kennels:write',
      '{ default: false }',
    );
    const twice = edits.appendToObject(
      'scopes.ts',
      once,
      'SCOPE_TABLE',
      'vaccinations:write',
      '{ default: false }',
    );
    expect(elementsOf(twice, 'SCOPE_TABLE')).toEqual([
      "'pets:read': { default: true }",
      "'webhooks:manage': { default: false }",
      "'kennels:write': { default: false }",
      "'vaccinations:write': { default: false }",
    ]);
  });

  it('refuses a scope it holds already', () => {
    expect(() =>
      edits.appendToObject('scopes.ts', table, 'SCOPE_TABLE', 'pets:read', '{ default: true }'),
    ).toThrow("holds 'pets:read' already");
  });
});

describe('addImport', () => {
  it('adds the import after the last one, not inside a comment or a string naming one', () => {
    const text =
      "import { A } from './a';\n// import { Z } from './z';\nimport { B } from './b';\n\nconst s = \"import { C } from './c';\";\n";
    const result = edits.addImport('x.ts', text, "import { K } from './k';");
    expect(result).toBe(
      "import { A } from './a';\n// import { Z } from './z';\nimport { B } from './b';\nimport { K } from './k';\n\nconst s = \"import { C } from './c';\";\n",
    );
  });
});
