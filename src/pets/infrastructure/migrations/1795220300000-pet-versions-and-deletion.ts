import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every pet carries `version`, `created_at` and `updated_at`, and may be deleted (`deleted_at`):
 * the row stays for its orders' sake, and no catalogue read or write sees it again.
 *
 * The database keeps them, whoever writes (the pets' statements, the store's, the sweeper's, an
 * operator's): a trigger before every update of a row bumps `version` and sets `updated_at` when
 * the name, category, status or deletion changes, and keeps them as they were otherwise (a write
 * can neither forget nor forge them). It is also the last word on two rules: a deleted pet never
 * changes again (its update is skipped), and a pet with an open order is never deleted.
 * Pets that existed before get version 1 and the instant of this migration.
 */
export class PetVersionsAndDeletion1795220300000 implements MigrationInterface {
  name = 'PetVersionsAndDeletion1795220300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Constant defaults: no table rewrite, whatever the number of pets.
    await queryRunner.query(`
      ALTER TABLE "pets"
        ADD COLUMN "version" integer NOT NULL DEFAULT 1 CHECK ("version" >= 1),
        ADD COLUMN "created_at" timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN "updated_at" timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN "deleted_at" timestamptz`);
    await queryRunner.query(`
      CREATE FUNCTION "pets_before_update"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD."deleted_at" IS NOT NULL THEN
          RETURN NULL;
        END IF;
        -- Asked with the row locked, in a snapshot of its own: an order committed while this
        -- statement waited for the row is seen.
        IF NEW."deleted_at" IS NOT NULL AND EXISTS (
             SELECT 1 FROM "orders"
              WHERE "pet_id" = NEW."id" AND "status" IN ('placed', 'approved')) THEN
          RAISE EXCEPTION 'Pet % has an open order: it cannot be deleted.', NEW."id"
            USING ERRCODE = 'restrict_violation', CONSTRAINT = 'pets_kept_while_ordered';
        END IF;
        NEW."created_at" := OLD."created_at";
        IF (NEW."name", NEW."category_id", NEW."status", NEW."deleted_at")
             IS DISTINCT FROM (OLD."name", OLD."category_id", OLD."status", OLD."deleted_at") THEN
          NEW."version" := OLD."version" + 1;
          NEW."updated_at" := now();
        ELSE
          NEW."version" := OLD."version";
          NEW."updated_at" := OLD."updated_at";
        END IF;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "pets_versioned" BEFORE UPDATE ON "pets"
        FOR EACH ROW EXECUTE FUNCTION "pets_before_update"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "pets_versioned" ON "pets"`);
    await queryRunner.query(`DROP FUNCTION "pets_before_update"()`);
    await queryRunner.query(`
      ALTER TABLE "pets"
        DROP COLUMN "deleted_at",
        DROP COLUMN "updated_at",
        DROP COLUMN "created_at",
        DROP COLUMN "version"`);
  }
}
