import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pet ids stay within 2^53 - 1, the integers every JSON client carries exactly, so that they are
 * the same number everywhere: in the database, the domain and every response.
 */
export class PetIdsWithinJsonNumbers1795219700000 implements MigrationInterface {
  name = 'PetIdsWithinJsonNumbers1795219700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "pets" ALTER COLUMN "id" SET MAXVALUE 9007199254740991`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "pets" ALTER COLUMN "id" SET NO MAXVALUE`);
  }
}
