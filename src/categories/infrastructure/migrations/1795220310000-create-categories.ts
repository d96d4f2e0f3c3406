import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Categories: ids chosen by clients (as pets' `categoryId` always were), names given later. Names
 * are unique whatever their case, by the database's own index; unnamed categories are many.
 */
export class CreateCategories1795220310000 implements MigrationInterface {
  name = 'CreateCategories1795220310000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "categories" (
        "id" bigint PRIMARY KEY CHECK ("id" BETWEEN 1 AND 9007199254740991),
        "name" varchar(50)
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "categories_name_key" ON "categories" (lower("name"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "categories"`);
  }
}
