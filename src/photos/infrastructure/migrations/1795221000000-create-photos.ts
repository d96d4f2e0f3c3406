import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The photos of the pets (docs/adr/0043): a pet's photos hold positions 1 to n, one photo a
 * position; the unique constraint is checked as each transaction commits, so that one statement
 * may shift a run of positions by one. Each photo names the stored variant of each size by its
 * content-addressed key; sizes of one width name the same. At most 12 a pet: the use case counts
 * them with the pet locked (the CHECK bounds the position as a last word).
 */
export class CreatePhotos1795221000000 implements MigrationInterface {
  name = 'CreatePhotos1795221000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "photos" (
        "id" bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
        "pet_id" bigint NOT NULL REFERENCES "pets" ("id") ON DELETE CASCADE,
        "position" smallint NOT NULL CHECK ("position" BETWEEN 1 AND 12),
        "width" integer NOT NULL CHECK ("width" > 0),
        "height" integer NOT NULL CHECK ("height" > 0),
        "small_key" varchar(80) NOT NULL,
        "medium_key" varchar(80) NOT NULL,
        "large_key" varchar(80) NOT NULL,
        "full_key" varchar(80) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "photos_one_per_position" UNIQUE ("pet_id", "position") DEFERRABLE INITIALLY DEFERRED
      )`);
    // Whether a photo still names a key, before its bytes are deleted: one index for the four.
    await queryRunner.query(
      `CREATE INDEX "photos_by_key_idx" ON "photos"
         USING gin ((ARRAY["small_key", "medium_key", "large_key", "full_key"]))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "photos"`);
  }
}
