import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every pet belongs to an organisation, whose staff alone change it (docs/adr/0040): those that
 * existed belong to organisation 1, as does every pet a key without an organisation creates. The
 * column's default is 1 for good, constant: no table rewrite, however many pets, and an instance
 * of the previous release inserting during a rolling deploy still gives a valid pet. The foreign
 * key is checked against the existing rows in a step of its own, which locks no writer out.
 * The index serves the distance search (the pets of the organisations near a point).
 */
export class PetsOfOrganizations1795230050000 implements MigrationInterface {
  name = 'PetsOfOrganizations1795230050000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "pets" ADD COLUMN "organization_id" bigint NOT NULL DEFAULT 1`,
    );
    await queryRunner.query(`
      ALTER TABLE "pets" ADD CONSTRAINT "pets_organization_fk"
        FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") NOT VALID`);
    await queryRunner.query(`ALTER TABLE "pets" VALIDATE CONSTRAINT "pets_organization_fk"`);
    await queryRunner.query(
      `CREATE INDEX "pets_organization_id_idx" ON "pets" ("organization_id", "id")
         WHERE "deleted_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "pets" DROP COLUMN "organization_id"`);
  }
}
