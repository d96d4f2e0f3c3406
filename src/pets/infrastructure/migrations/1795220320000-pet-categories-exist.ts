import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every category a pet names exists: the categories of the pets there are now are created
 * (unnamed), and a foreign key keeps it so, whoever writes. The pets' own statements create a
 * category they name first in the same statement as the pet. Pets of one category, as keyset pages,
 * come from an index of their own.
 */
export class PetCategoriesExist1795220320000 implements MigrationInterface {
  name = 'PetCategoriesExist1795220320000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No pet is written between the categories found and the key that checks them.
    await queryRunner.query(`LOCK TABLE "pets" IN SHARE ROW EXCLUSIVE MODE`);
    await queryRunner.query(`
      INSERT INTO "categories" ("id")
      SELECT DISTINCT "category_id" FROM "pets"
      ON CONFLICT DO NOTHING`);
    await queryRunner.query(`
      ALTER TABLE "pets" ADD CONSTRAINT "pets_category_id_fkey"
        FOREIGN KEY ("category_id") REFERENCES "categories" ("id")`);
    await queryRunner.query(`
      CREATE INDEX "pets_category_id_idx" ON "pets" ("category_id", "id")
        WHERE "deleted_at" IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "pets_category_id_idx"`);
    await queryRunner.query(`ALTER TABLE "pets" DROP CONSTRAINT "pets_category_id_fkey"`);
  }
}
