import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Orders, each the adoption of one pet by the API key that placed it. "At most one open order per
 * pet" is the database's rule (a partial unique index), whatever any instance does.
 */
export class CreateOrders1795219900000 implements MigrationInterface {
  name = 'CreateOrders1795219900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "orders" (
        "id" bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY,
        "pet_id" bigint NOT NULL REFERENCES "pets" ("id"),
        "owner_key_id" bigint NOT NULL,
        "status" varchar(16) NOT NULL
          CHECK ("status" IN ('placed', 'approved', 'delivered', 'cancelled')),
        "placed_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "orders_one_open_per_pet" ON "orders" ("pet_id")
         WHERE "status" IN ('placed', 'approved')`,
    );
    // A key's own orders, and one pet's, as keyset pages (ascending id).
    await queryRunner.query(
      `CREATE INDEX "orders_owner_id_idx" ON "orders" ("owner_key_id", "id")`,
    );
    await queryRunner.query(`CREATE INDEX "orders_pet_id_idx" ON "orders" ("pet_id", "id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "orders"`);
  }
}
