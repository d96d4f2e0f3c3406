import { MigrationInterface, QueryRunner } from 'typeorm';

/** The table of the TypeORM key store; an application adds it to its migrations. */
export class CreateApiKeys1795219300000 implements MigrationInterface {
  name = 'CreateApiKeys1795219300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "api_keys" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "name" varchar(100) NOT NULL,
        "plan" varchar(16) NOT NULL CHECK ("plan" IN ('free', 'pro', 'business', 'enterprise')),
        "per_minute" integer CHECK ("per_minute" > 0),
        "per_day" integer CHECK ("per_day" > 0),
        "prefix" varchar(32) NOT NULL,
        "hash" char(64) NOT NULL UNIQUE,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "revoked_at" timestamptz,
        "last_used_at" timestamptz,
        CHECK (("plan" = 'enterprise') = ("per_minute" IS NOT NULL AND "per_day" IS NOT NULL))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "api_keys"`);
  }
}
