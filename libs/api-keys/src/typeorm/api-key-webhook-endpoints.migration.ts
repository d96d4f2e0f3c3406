import { MigrationInterface, QueryRunner } from 'typeorm';

/** An enterprise key's own cap on webhook endpoints; null for every other key (their plan's applies). */
export class ApiKeyWebhookEndpoints1795240470000 implements MigrationInterface {
  name = 'ApiKeyWebhookEndpoints1795240470000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "api_keys"
        ADD COLUMN "webhook_endpoints" integer CHECK ("webhook_endpoints" > 0),
        ADD CHECK ("webhook_endpoints" IS NULL OR "plan" = 'enterprise')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "webhook_endpoints"`);
  }
}
