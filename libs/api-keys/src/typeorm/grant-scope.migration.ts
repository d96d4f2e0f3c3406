import { MigrationInterface, QueryRunner } from 'typeorm';

const SCOPE = /^[a-z][a-z0-9_.:-]*$/;

function checked(scopes: readonly string[]): string {
  const bad = scopes.find((scope) => !SCOPE.test(scope));
  if (bad !== undefined) throw new Error(`Not a scope name: ${JSON.stringify(bad)}.`);
  // A column default is no place for a bound parameter; the names are checked above.
  return `ARRAY[${scopes.map((scope) => `'${scope}'`).join(', ')}]::text[]`;
}

/**
 * For an application that adds a scope every key should have: the base of a migration of its own,
 * `class GrantVaccinationsRead1795221000000 extends GrantScopeToExistingKeys('vaccinations:read',
 * DEFAULT_SCOPES) {}` (the subclass's name carries the timestamp). `up` gives `scope` to every
 * existing key that lacks it and makes `defaults` (which hold it) the column default, for keys an
 * older instance inserts during a rolling deploy; `down` takes it back from every key that keeps
 * another scope, and drops it from the default. ApiKeyScopesMigration runs once: this is how keys
 * issued before a scope existed gain it.
 */
export function GrantScopeToExistingKeys(
  scope: string,
  defaults: readonly string[],
): new () => MigrationInterface {
  checked([scope]);
  if (!defaults.includes(scope)) {
    throw new Error(`The defaults must hold the scope granted, ${JSON.stringify(scope)}.`);
  }
  const withScope = checked(defaults);
  const withoutScope = checked(defaults.filter((name) => name !== scope));
  return class GrantScopeToExistingKeys implements MigrationInterface {
    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(
        `UPDATE "api_keys" SET "scopes" = array_append("scopes", $1::text)
          WHERE NOT ($1::text = ANY ("scopes"))`,
        [scope],
      );
      await queryRunner.query(
        `ALTER TABLE "api_keys" ALTER COLUMN "scopes" SET DEFAULT ${withScope}`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(
        `UPDATE "api_keys" SET "scopes" = array_remove("scopes", $1::text)
          WHERE $1::text = ANY ("scopes") AND cardinality("scopes") > 1`,
        [scope],
      );
      await queryRunner.query(
        `ALTER TABLE "api_keys" ALTER COLUMN "scopes" SET DEFAULT ${withoutScope}`,
      );
    }
  };
}
