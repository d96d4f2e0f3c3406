import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys belong to organisations (docs/adr/0040). A key's organisation must exist; keys that
 * existed belong to none (adopters' and integrators' keys), except those that held
 * `orders:manage`, the store's own staff: they belong to organisation 1 and gain `pets:manage`,
 * so that they keep correcting the catalogue they managed, now that `pets:write` only creates.
 */
export class StaffKeysOfTheHouse1795230200000 implements MigrationInterface {
  name = 'StaffKeysOfTheHouse1795230200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_fk"
        FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id")`);
    await queryRunner.query(`
      UPDATE "api_keys"
         SET "organization_id" = 1,
             "scopes" = CASE WHEN 'pets:manage' = ANY ("scopes") THEN "scopes"
                             ELSE array_append("scopes", 'pets:manage') END,
             "changed_at" = now()
       WHERE 'orders:manage' = ANY ("scopes")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE "api_keys" SET "organization_id" = NULL,
             "scopes" = array_remove("scopes", 'pets:manage')
       WHERE "organization_id" = 1 AND 'orders:manage' = ANY ("scopes")`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_organization_fk"`);
  }
}
