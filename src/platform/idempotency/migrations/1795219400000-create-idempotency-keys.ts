import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdempotencyKeys1795219400000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1795219400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "idempotency_keys" (
        "scope" varchar(64) NOT NULL,
        "key" varchar(255) NOT NULL,
        "request_hash" char(64) NOT NULL,
        "pet_id" bigint NOT NULL REFERENCES "pets" ("id"),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("scope", "key")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
