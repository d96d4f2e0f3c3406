import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePets1795219200000 implements MigrationInterface {
  name = 'CreatePets1795219200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "pets" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "name" varchar(100) NOT NULL,
        "category_id" bigint NOT NULL CHECK ("category_id" BETWEEN 1 AND 9007199254740991),
        "status" varchar(16) NOT NULL CHECK ("status" IN ('available', 'pending', 'sold'))
      )`);
    await queryRunner.query(`CREATE INDEX "pets_status_id_idx" ON "pets" ("status", "id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "pets"`);
  }
}
