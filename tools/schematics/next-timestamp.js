const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The next migration timestamp: past every one the repository's migrations hold (src/ and libs/),
 * on a round 1000 as the house's are. Two branches that generate at once can meet on one: the
 * later to merge runs `npm run migration:create` again (docs/extending.md).
 */
function nextTimestamp(root) {
  let latest = 0;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'node_modules') visit(join(dir, entry.name));
      const stamp = /(\d{13})/.exec(entry.name);
      if (entry.isFile() && stamp && /migration/.test(join(dir, entry.name))) {
        latest = Math.max(latest, Number(stamp[1]));
      }
    }
  };
  visit(join(root, 'src'));
  visit(join(root, 'libs'));
  return Math.floor(latest / 1000) * 1000 + 1000;
}

module.exports = { nextTimestamp };
