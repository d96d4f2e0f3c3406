import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Finding pets by a fragment of their name: a trigram index (pg_trgm, a trusted extension since
 * PostgreSQL 13, bundled with the embedded engine) serves `name ILIKE '%…%'`, so a page of a rare
 * fragment costs about as much at 1,000,000 pets as at a thousand (docs/adr/0029).
 */
export class PetNameSearch1795220340000 implements MigrationInterface {
  name = 'PetNameSearch1795220340000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS "pg_trgm"`);
    await queryRunner.query(`
      CREATE INDEX "pets_name_trgm_idx" ON "pets" USING gin ("name" gin_trgm_ops)
        WHERE "deleted_at" IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The extension stays: something else may use it.
    await queryRunner.query(`DROP INDEX "pets_name_trgm_idx"`);
  }
}
