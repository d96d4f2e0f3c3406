import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys of tenants, keys that expire, and rolls with an overlap: the tenant a key belongs to (the
 * application's id, no foreign key: the library knows no tenants' table), the instant it expires,
 * the hash of the secret its last roll replaced and until when that still opens it, and when the
 * key last changed, which every instance asks about to learn of issued, rolled and revoked keys
 * (the index makes that one range read however many keys there are). Existing keys belong to no
 * tenant, never expire, and changed when they were created or revoked.
 */
export class ApiKeyRollsAndExpiry1795230100000 implements MigrationInterface {
  name = 'ApiKeyRollsAndExpiry1795230100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "api_keys"
        ADD COLUMN "organization_id" bigint,
        ADD COLUMN "expires_at" timestamptz,
        ADD COLUMN "previous_hash" char(64) UNIQUE,
        ADD COLUMN "previous_hash_expires_at" timestamptz,
        ADD COLUMN "changed_at" timestamptz NOT NULL DEFAULT now(),
        ADD CHECK (("previous_hash" IS NULL) = ("previous_hash_expires_at" IS NULL))`);
    await queryRunner.query(
      `UPDATE "api_keys" SET "changed_at" = coalesce("revoked_at", "created_at")`,
    );
    await queryRunner.query(`CREATE INDEX "api_keys_changed_at_idx" ON "api_keys" ("changed_at")`);
    await queryRunner.query(
      `CREATE INDEX "api_keys_of_organization_idx" ON "api_keys" ("organization_id", "id")
         WHERE "organization_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "api_keys"
        DROP COLUMN "changed_at",
        DROP COLUMN "previous_hash_expires_at",
        DROP COLUMN "previous_hash",
        DROP COLUMN "expires_at",
        DROP COLUMN "organization_id"`);
  }
}
