import { MigrationInterface, QueryRunner } from 'typeorm';
import { keyedNames } from '../../../common/unique-name';

/**
 * Category names unique as the unique-name rule compares them (docs/adr/0045): a stored
 * `name_key` (common/unique-name.ts: invisible characters removed, NFKC, full case folding,
 * trimmed), backfilled here and unique by the database's own index, which replaces the index on
 * `lower(name)` (under which `Straße` and `STRASSE`, `Dogs` and `Ｄｏｇｓ` coexisted).
 *
 * Names stored before that share a key: the oldest category (lowest id) keeps its name; each
 * later one is renamed to its name followed by ` (category <id>)` (shortened to fit 50
 * characters), so that no category loses its name, pets keep their category, and the staff see
 * which to rename. A stored name mixing scripts in one word is kept: the rule refuses new ones.
 * The key is computed by the application (PostgreSQL has no full case folding), as at every
 * naming; the column is null exactly when the name is.
 */
export class CategoryNameKeys1795231100000 implements MigrationInterface {
  name = 'CategoryNameKeys1795231100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "categories" ADD COLUMN "name_key" text`);
    const named: { id: string; name: string }[] = await queryRunner.query(
      `SELECT "id", "name" FROM "categories" WHERE "name" IS NOT NULL ORDER BY "id"`,
    );
    const keyed = keyedNames(named, 'category', 50);
    if (keyed.length > 0) {
      await queryRunner.query(
        `UPDATE "categories" AS c SET "name" = v.name, "name_key" = v.key
           FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(id, name, key)
          WHERE c."id" = v.id`,
        [keyed.map(({ id }) => id), keyed.map(({ name }) => name), keyed.map(({ key }) => key)],
      );
    }
    await queryRunner.query(`DROP INDEX "categories_name_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "categories_name_key_unique" ON "categories" ("name_key")`,
    );
    await queryRunner.query(
      `ALTER TABLE "categories" ADD CONSTRAINT "categories_name_key_given"
         CHECK (("name" IS NULL) = ("name_key" IS NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "categories" DROP COLUMN "name_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "categories_name_key" ON "categories" (lower("name"))`,
    );
  }
}
