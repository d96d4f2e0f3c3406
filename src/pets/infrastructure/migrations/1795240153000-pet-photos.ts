import { MigrationInterface, QueryRunner } from 'typeorm';
import { beforeUpdate } from './1795240151000-pet-profiles';

/** What PetProfiles1795240151000's trigger counts as a change of the pet. */
const BEFORE = '@."name", @."category_id", @."status", @."deleted_at", @."profile"';

/**
 * A pet's photos as its answers show them (docs/adr/0054): the `photos` table stays what they
 * are; this column is their projection on the pet, written in the same transaction as every change
 * of them, so that a page of pets and a `pet.*` event read one column instead of a join per pet.
 * `json`, not `jsonb`: it is only ever read whole, and keeps its members in the answer's order.
 * A change of it is a change of the pet (`version`); `hasPhotos` reads a partial index of the
 * pets that have one.
 */
export class PetPhotos1795240153000 implements MigrationInterface {
  name = 'PetPhotos1795240153000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "pets"
        ADD COLUMN "photos" json NOT NULL DEFAULT '[]'::json,
        ADD CONSTRAINT "pets_photos_is_array" CHECK (json_typeof("photos") = 'array')`);
    await queryRunner.query(beforeUpdate(`${BEFORE}, @."photos"::text`));
    await queryRunner.query(
      `CREATE INDEX "pets_live_with_photos_id_idx" ON "pets" ("id")
         WHERE "deleted_at" IS NULL AND "photos"::text <> '[]'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "pets_live_with_photos_id_idx"`);
    await queryRunner.query(beforeUpdate(BEFORE));
    await queryRunner.query(`ALTER TABLE "pets" DROP COLUMN "photos"`);
  }
}
