import { MigrationInterface, QueryRunner } from 'typeorm';

/** An enterprise key's own cap on open orders; null for every other key (their plan's applies). */
export class ApiKeyOpenOrders1795220100000 implements MigrationInterface {
  name = 'ApiKeyOpenOrders1795220100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "api_keys"
        ADD COLUMN "open_orders" integer CHECK ("open_orders" > 0),
        ADD CHECK ("open_orders" IS NULL OR "plan" = 'enterprise')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "open_orders"`);
  }
}
