// Refuses an unsupported Node.js before anything else runs (`npm start`, `npm test`), in one line
// naming the supported versions: on Node.js 20 the service otherwise starts, half works and
// fails later in ways that name no cause. CommonJS and no dependency, so that it runs on any
// Node.js, before `npm install` too. The versions are package.json's `engines.node`.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** [major, minor, patch] of a version such as `v22.22.3` or `24.15.0`. */
function parts(version) {
  return version.replace(/^v/, '').split('.').map(Number);
}

function atLeast(version, least) {
  for (let i = 0; i < 3; i++) if (version[i] !== least[i]) return version[i] > least[i];
  return true;
}

/**
 * Whether `version` satisfies `range`, in the grammar engines.node uses here: alternatives
 * separated by `||`, each `^X.Y.Z` (that major, from X.Y.Z) or `>=X.Y.Z`.
 */
function satisfies(version, range) {
  const v = parts(version);
  return range.split('||').some((alternative) => {
    const match = /^\s*(\^|>=)(\d+\.\d+\.\d+)\s*$/.exec(alternative);
    if (!match) throw new Error(`engines.node: cannot read "${alternative.trim()}"`);
    const least = parts(match[2]);
    return atLeast(v, least) && (match[1] === '>=' || v[0] === least[0]);
  });
}

/** `22 (22.22.3+), 24 (24.15+) or 26+`: the range as the README says it. */
function described(range) {
  const names = range.split('||').map((alternative) => {
    const [, operator, least] = /(\^|>=)(\S+)/.exec(alternative);
    const [major, minor, patch] = parts(least);
    const from = minor || patch ? ` (${major}.${minor}${patch ? `.${patch}` : ''}+)` : '';
    return operator === '>=' ? `${major}${from}+` : `${major}${from}`;
  });
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
}

module.exports = { satisfies, described };

if (require.main === module) {
  const range = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).engines
    .node;
  if (!satisfies(process.version, range)) {
    process.stderr.write(
      `Node.js ${process.version} is not supported: use Node.js ${described(range)} (package.json engines).\n`,
    );
    process.exit(1);
  }
}
