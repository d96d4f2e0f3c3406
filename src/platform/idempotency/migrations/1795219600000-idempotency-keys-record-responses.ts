import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys serve any feature: a key records the response it was answered with (the
 * original 201, replayed as it was), not a pet. Claims are taken before the creation, in the same
 * transaction, so the response is filled in by the time the claim is visible.
 */
export class IdempotencyKeysRecordResponses1795219600000 implements MigrationInterface {
  name = 'IdempotencyKeysRecordResponses1795219600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD COLUMN "response" jsonb`);
    await queryRunner.query(`
      UPDATE "idempotency_keys" k
         SET "response" = jsonb_build_object(
           'id', p."id", 'name', p."name", 'categoryId', p."category_id", 'status', p."status")
        FROM "pets" p WHERE p."id" = k."pet_id"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "pet_id"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" ADD COLUMN "pet_id" bigint REFERENCES "pets" ("id")`,
    );
    await queryRunner.query(
      `UPDATE "idempotency_keys" SET "pet_id" = ("response"->>'id')::bigint WHERE "response" ? 'id'`,
    );
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "response"`);
  }
}
