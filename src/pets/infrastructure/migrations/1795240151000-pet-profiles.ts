import { MigrationInterface, QueryRunner } from 'typeorm';

/** The profile of an animal nothing is known of, as this migration stores it (never changes). */
const UNKNOWN = JSON.stringify({
  breed: { primary: null, secondary: null, mixed: false },
  age: null,
  birthDate: null,
  sex: null,
  size: null,
  coat: null,
  colors: [],
  description: null,
  attributes: { spayedNeutered: null, houseTrained: null, specialNeeds: null, shotsCurrent: null },
  environment: { children: null, dogs: null, cats: null },
  tags: [],
});

/**
 * The row trigger of PetVersionsAndDeletion1795220300000, counting `compared` as a change (also
 * PetPhotos1795240153000's, which counts one column more).
 */
export const beforeUpdate = (compared: string) => `
  CREATE OR REPLACE FUNCTION "pets_before_update"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    IF (${compared.replaceAll('@', 'NEW')}) IS DISTINCT FROM (${compared.replaceAll('@', 'OLD')}) THEN
      NEW."version" := OLD."version" + 1;
      NEW."updated_at" := now();
    ELSE
      NEW."version" := OLD."version";
      NEW."updated_at" := OLD."updated_at";
    END IF;
    RETURN NEW;
  END $$`;

/**
 * An animal's profile (v1.3: breed, age, sex, size, coat, colours, description, attributes,
 * environment, tags) in one `jsonb` column, always whole: every existing pet gets the unknown
 * profile (a constant default: no table rewrite). One column, because the profile is read and
 * written as one object and merged by one statement (ADR 0053); the search filters index the
 * members they need. A change of the profile is a change of the pet: it moves `version`.
 */
export class PetProfiles1795240151000 implements MigrationInterface {
  name = 'PetProfiles1795240151000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "pets"
        ADD COLUMN "profile" jsonb NOT NULL DEFAULT '${UNKNOWN}'::jsonb,
        ADD CONSTRAINT "pets_profile_is_object" CHECK (jsonb_typeof("profile") = 'object')`);
    await queryRunner.query(
      beforeUpdate('@."name", @."category_id", @."status", @."deleted_at", @."profile"'),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(beforeUpdate('@."name", @."category_id", @."status", @."deleted_at"'));
    await queryRunner.query(`ALTER TABLE "pets" DROP COLUMN "profile"`);
  }
}
