import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deleted pet's photos go with it (CONTRACT.md "Trust, round 4 (v1.4)"; docs/adr/0043, "Photos
 * of a deleted pet"). A pet is deleted by setting `deleted_at`: its row stays for its orders' sake,
 * and so did its photos, whose images stayed public at their URLs (issue 44).
 *
 * A trigger after that update removes the pet's photos in the deleting transaction, so they commit
 * or roll back with the deletion, and records the keys of their images in
 * `photo_images_released`; each instance's ReleasedImagesSweeper then deletes the bytes of every
 * released key no photo names any more (another pet's photo may show the very same bytes: keys are
 * content-addressed) and forgets the rows. The pets feature knows nothing of photos: the trigger is
 * the photos feature's, on a table its module declares it uses. Lock order stays pets, then photos
 * (docs/adr/0054): the pet's row is locked by its update before the trigger runs.
 *
 * The photos of pets deleted before this migration are released at once, the same way.
 */
export class PhotosGoWithTheirPet1795240158400 implements MigrationInterface {
  name = 'PhotosGoWithTheirPet1795240158400';

  async up(queryRunner: QueryRunner): Promise<void> {
    // One row a release, not a key: a key released again while a sweep looks at it (a second pet
    // with the same image deleted meanwhile) keeps a row of its own, so it is looked at again.
    await queryRunner.query(`
      CREATE TABLE "photo_images_released" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "key" varchar(80) NOT NULL,
        "released_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE FUNCTION "photos_go_with_their_pet"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH "gone" AS (
          DELETE FROM "photos" WHERE "pet_id" = NEW."id"
          RETURNING ARRAY["small_key", "medium_key", "large_key", "full_key"] AS "keys"
        )
        INSERT INTO "photo_images_released" ("key")
        SELECT DISTINCT "key" FROM "gone", unnest("gone"."keys") AS "key";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "photos_go_with_their_pet" AFTER UPDATE OF "deleted_at" ON "pets"
        FOR EACH ROW
        WHEN (OLD."deleted_at" IS NULL AND NEW."deleted_at" IS NOT NULL)
        EXECUTE FUNCTION "photos_go_with_their_pet"()`);
    await queryRunner.query(`
      WITH "gone" AS (
        DELETE FROM "photos"
         WHERE "pet_id" IN (SELECT "id" FROM "pets" WHERE "deleted_at" IS NOT NULL)
        RETURNING ARRAY["small_key", "medium_key", "large_key", "full_key"] AS "keys"
      )
      INSERT INTO "photo_images_released" ("key")
      SELECT DISTINCT "key" FROM "gone", unnest("gone"."keys") AS "key"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The photos removed stay removed: their pets are deleted, and nothing shows them.
    await queryRunner.query(`DROP TRIGGER "photos_go_with_their_pet" ON "pets"`);
    await queryRunner.query(`DROP FUNCTION "photos_go_with_their_pet"()`);
    await queryRunner.query(`DROP TABLE "photo_images_released"`);
  }
}
