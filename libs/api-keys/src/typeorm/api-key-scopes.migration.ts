import { MigrationInterface, QueryRunner } from 'typeorm';

const SCOPE = /^[a-z][a-z0-9_.:-]*$/;

/**
 * The `scopes` column of the TypeORM key store, for an application that gives its keys scopes:
 * `ApiKeyScopesMigration(defaults)` is the migration class to add after CreateApiKeys. Existing
 * keys, and keys an older instance inserts during a rolling deploy, get the defaults.
 */
export function ApiKeyScopesMigration(defaults: readonly string[]): new () => MigrationInterface {
  const bad = defaults.find((scope) => !SCOPE.test(scope));
  if (bad !== undefined) throw new Error(`Not a scope name: ${JSON.stringify(bad)}.`);
  // A column default is no place for a bound parameter; the names are checked above.
  const literal = `ARRAY[${defaults.map((scope) => `'${scope}'`).join(', ')}]::text[]`;
  return class AddApiKeyScopes1795219800000 implements MigrationInterface {
    name = 'AddApiKeyScopes1795219800000';

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(
        `ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] NOT NULL DEFAULT ${literal}`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "scopes"`);
    }
  };
}
