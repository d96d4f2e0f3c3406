// Fails when a production dependency in package-lock.json declares a Node.js range narrower than
// the project's own `engines.node`: then `engines` would promise a Node.js the service cannot run on.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const ours = manifest.engines?.node;
if (!ours) {
  console.error('package.json declares no engines.node.');
  process.exit(1);
}

/**
 * An optional build for one platform (`os`/`cpu`, such as sharp's `@img/sharp-win32-ia32`) is
 * installed only on that platform: its range speaks for that platform alone (sharp's 32-bit
 * Windows build says Node.js 20), not for the machines the service claims.
 */
const isPlatformBuild = (entry) => entry.optional && (entry.os || entry.cpu);

const narrower = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && !entry.dev && entry.engines?.node)
  .filter(([, entry]) => !isPlatformBuild(entry))
  .filter(([, entry]) => !semver.subset(ours, entry.engines.node))
  .map(
    ([path, entry]) =>
      `  ${path.replace(/^.*node_modules\//, '')}@${entry.version}: node ${entry.engines.node}`,
  );

if (narrower.length > 0) {
  console.error(`engines.node is "${ours}", but these production dependencies need more:`);
  console.error(narrower.join('\n'));
  process.exit(1);
}
console.log(`Every production dependency runs on node ${ours}.`);
