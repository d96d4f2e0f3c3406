// Builds dist/ only when the build is not current: when a source file, a folder of them (a file
// added, removed or renamed) or a build setting is newer than the start of the last build made
// here. `npm start` on a current build then starts in about a second instead of waiting for
// `nest build`.
//
//   node scripts/build-if-stale.mjs                  builds if needed, silently when nothing changed
//   node scripts/build-if-stale.mjs --force          builds in any case
//   node scripts/build-if-stale.mjs --keep-existing  builds only where there is no build at all, and
//                                                    says so in one line when the one there is stale
//                                                    (`npm run apikey`: a service may be running
//                                                    from dist/, which a build would rewrite under it)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Written after a build, dated when that build started: a file saved during it is newer. */
const STAMP = join(root, 'dist', '.build-started');
const SOURCE_FOLDERS = ['src', 'libs'];
const SETTINGS = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
];

/** The newest modification time, in ms, of the build's inputs. */
export function newestInput() {
  let newest = 0;
  const see = (path) => (newest = Math.max(newest, statSync(path).mtimeMs));
  for (const setting of SETTINGS) if (existsSync(join(root, setting))) see(join(root, setting));
  for (const folder of SOURCE_FOLDERS) {
    see(join(root, folder));
    for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath ?? entry.path, entry.name);
      if (entry.isDirectory() || /\.(ts|json)$/.test(entry.name)) see(path);
    }
  }
  return newest;
}

/** Whether dist/ was built here after every input last changed. */
export function buildIsCurrent() {
  return existsSync(STAMP) && statSync(STAMP).mtimeMs >= newestInput();
}

/** Builds dist/ with `nest build` and dates the stamp at the build's start. */
export function build() {
  const started = new Date();
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  writeFileSync(STAMP, `${started.toISOString()}\n`);
  utimesSync(STAMP, started, started);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--force')) {
    build();
  } else if (!buildIsCurrent()) {
    if (
      process.argv.includes('--keep-existing') &&
      existsSync(join(root, 'dist', 'src', 'main.js'))
    ) {
      process.stderr.write(
        'dist/ is older than the sources: this runs the last build (npm run build, or restarting npm start, updates it).\n',
      );
    } else {
      build();
    }
  }
}
