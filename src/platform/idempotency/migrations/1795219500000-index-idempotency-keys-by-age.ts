import { MigrationInterface, QueryRunner } from 'typeorm';

/** Lets the pruner find expired idempotency keys by age, a batch at a time, without a scan. */
export class IndexIdempotencyKeysByAge1795219500000 implements MigrationInterface {
  name = 'IndexIdempotencyKeysByAge1795219500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" ("created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idempotency_keys_created_at_idx"`);
  }
}
