import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair use (docs/adr/0022): a `placed` order holds its pet until `expires_at`, a cancelled one says
 * why, and a key's open orders are counted through an index of their own. Orders placed before
 * holds existed get the default hold of three days from their placing; orders cancelled before
 * reasons existed were all cancelled by a client's request.
 */
export class OrderHolds1795220200000 implements MigrationInterface {
  name = 'OrderHolds1795220200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "orders"
        ADD COLUMN "expires_at" timestamptz,
        ADD COLUMN "cancel_reason" varchar(16)
          CHECK ("cancel_reason" IN ('requested', 'expired', 'key_revoked'))`);
    await queryRunner.query(`
      UPDATE "orders" SET
        "expires_at" = CASE WHEN "status" = 'placed' THEN "placed_at" + interval '3 days' END,
        "cancel_reason" = CASE WHEN "status" = 'cancelled' THEN 'requested' END`);
    await queryRunner.query(`
      ALTER TABLE "orders"
        ADD CONSTRAINT "orders_hold_only_while_placed"
          CHECK (("expires_at" IS NOT NULL) = ("status" = 'placed')),
        ADD CONSTRAINT "orders_reason_only_when_cancelled"
          CHECK (("cancel_reason" IS NOT NULL) = ("status" = 'cancelled'))`);
    // The sweeper's look-up: placed orders by the end of their hold.
    await queryRunner.query(
      `CREATE INDEX "orders_placed_expiry_idx" ON "orders" ("expires_at") WHERE "status" = 'placed'`,
    );
    // A key's open orders, counted before each placement.
    await queryRunner.query(
      `CREATE INDEX "orders_open_by_owner_idx" ON "orders" ("owner_key_id")
         WHERE "status" IN ('placed', 'approved')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "orders_open_by_owner_idx"`);
    await queryRunner.query(`DROP INDEX "orders_placed_expiry_idx"`);
    await queryRunner.query(`
      ALTER TABLE "orders"
        DROP CONSTRAINT "orders_reason_only_when_cancelled",
        DROP CONSTRAINT "orders_hold_only_while_placed",
        DROP COLUMN "cancel_reason",
        DROP COLUMN "expires_at"`);
  }
}
