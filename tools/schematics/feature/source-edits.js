// The feature schematic's edits to the two shared files (src/app.module.ts, src/common/scopes.ts),
// placed by TypeScript's own parser rather than by matching text: an array or an object literal
// that prettier has wrapped, that ends with a trailing comma or that is empty takes the new entry
// just the same (a marker like `];` gave `, Module` on a line of its own, a sparse array, once
// FEATURES wrapped). The result is formatted by prettier afterwards (scripts/generate-feature.mjs).
const ts = require('typescript');

function parse(path, text) {
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** The initializer of the top-level `const <name> = …`, through `as const` and `satisfies`. */
function initializerOf(source, name) {
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.name.text === name) {
        let node = declaration.initializer;
        while (node && (ts.isSatisfiesExpression(node) || ts.isAsExpression(node))) {
          node = node.expression;
        }
        return node;
      }
    }
  }
  return undefined;
}

/**
 * Inserts `entry` as the last element of a list (an array's elements, an object's properties):
 * right after the last one, with the comma between them, whatever comma or comment follows.
 */
function appendToList(text, list, openEnd, entry) {
  if (list.length === 0) return text.slice(0, openEnd) + entry + text.slice(openEnd);
  const end = list[list.length - 1].end;
  return text.slice(0, end) + ', ' + entry + text.slice(end);
}

/** Adds `element` as the last element of the array literal `const <name> = [...]`. */
function appendToArray(path, text, name, element) {
  const array = initializerOf(parse(path, text), name);
  if (!array || !ts.isArrayLiteralExpression(array)) {
    throw new Error(
      `${path} no longer declares \`const ${name} = [...]\`: add ${element} by hand.`,
    );
  }
  if (array.elements.some((e) => ts.isIdentifier(e) && e.text === element)) {
    throw new Error(`${path}: ${name} holds ${element} already.`);
  }
  return appendToList(text, array.elements, array.elements.pos, element);
}

/** Adds `key: value` as the last property of the object literal `const <name> = {...}`. */
function appendToObject(path, text, name, key, value) {
  const object = initializerOf(parse(path, text), name);
  if (!object || !ts.isObjectLiteralExpression(object)) {
    throw new Error(`${path} no longer declares \`const ${name} = {...}\`: add '${key}' by hand.`);
  }
  const taken = object.properties.some(
    (p) => p.name && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name)) && p.name.text === key,
  );
  if (taken) throw new Error(`${path}: ${name} holds '${key}' already.`);
  return appendToList(text, object.properties, object.properties.pos, `'${key}': ${value}`);
}

/** Adds an import declaration after the file's last one (or at its top if it has none). */
function addImport(path, text, declaration) {
  const imports = parse(path, text).statements.filter(ts.isImportDeclaration);
  const at = imports.length > 0 ? imports[imports.length - 1].end : 0;
  return (
    text.slice(0, at) + (at > 0 ? '\n' : '') + declaration + (at > 0 ? '' : '\n') + text.slice(at)
  );
}

module.exports = { appendToArray, appendToObject, addImport };
