import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as apiKeys from '@pet-adoption/api-keys';
import { ApiKeyScopesMigration } from '@pet-adoption/api-keys';
import { MigrationInterface } from 'typeorm';
import { DEFAULT_SCOPES } from './common/scopes';

type Migration = new () => MigrationInterface;

/** A migration class: named `<Name><13-digit timestamp>`, as TypeORM orders them. */
const isMigration = (value: unknown): value is Migration =>
  typeof value === 'function' &&
  /\d{13}$/.test(value.name) &&
  typeof (value.prototype as Partial<MigrationInterface>)?.up === 'function';

const timestamp = (migration: Migration) => Number(/(\d{13})$/.exec(migration.name)![1]);

/** The folders that hold migrations by convention, relative to this file (src/ or dist/src/). */
function migrationFolders(): string[] {
  const folders = [];
  for (const area of readdirSync(__dirname, { withFileTypes: true })) {
    if (!area.isDirectory()) continue;
    // A feature's own: src/<feature>/infrastructure/migrations; the platform's: per part.
    const parents =
      area.name === 'platform'
        ? readdirSync(join(__dirname, area.name)).map((part) => join(__dirname, area.name, part))
        : [join(__dirname, area.name, 'infrastructure')];
    for (const parent of parents) {
      try {
        if (readdirSync(parent).includes('migrations')) folders.push(join(parent, 'migrations'));
      } catch {
        // a file, or a feature without infrastructure
      }
    }
  }
  return folders;
}

/** The migration classes the files of `folder` export, compiled (.js) or not (.ts, under Jest). */
function migrationsIn(folder: string): Migration[] {
  return readdirSync(folder)
    .filter((file) => /\.(js|ts)$/.test(file) && !/\.(d|spec)\.ts$/.test(file))
    .flatMap((file) => {
      // Loaded by path, not listed: a migration file added to a feature needs no edit elsewhere.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = require(join(folder, file)) as Record<string, unknown>;
      return Object.values(exported).filter(isMigration);
    });
}

/**
 * Every migration, in timestamp order (docs/adr/0026): the files of each feature's
 * `infrastructure/migrations/` and each platform part's `migrations/`, every migration class the
 * API-key library exports, and the library's scopes migration with the application's defaults.
 * Found from the folders this file sits beside, so they load the same from src/ and dist/.
 */
export const migrations: Migration[] = [
  ...migrationFolders().flatMap(migrationsIn),
  ...(Object.values(apiKeys) as unknown[]).filter(isMigration),
  ApiKeyScopesMigration(DEFAULT_SCOPES),
].sort((a, b) => timestamp(a) - timestamp(b));
