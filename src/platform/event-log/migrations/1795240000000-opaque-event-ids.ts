import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Opaque event ids (docs/adr/0048): each event gets its number (`public_id`, a uuid column: 16
 * bytes that PostgreSQL orders as bytes, so as the numbers) when it settles, in the feed's order,
 * from EventSettler; the feed pages and sorts by it. `xid` stays: it is how the settler knows an
 * event is settled (no transaction older than its own under way), and an instance of the previous
 * release still reads by it during a rolling deploy.
 *
 * The events already recorded are numbered here, in their (xid, id) order: the running greatest
 * millisecond of their `occurred_at`, then a running sum of random steps, so that these ids too
 * ascend in the feed's order and count nothing. ALTER TABLE waits for every transaction that
 * inserted into `events` to end, so every row numbered here is committed.
 */
export class OpaqueEventIds1795240000000 implements MigrationInterface {
  name = 'OpaqueEventIds1795240000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" ADD COLUMN "public_id" uuid`);
    await queryRunner.query(`
      WITH "stepped" AS (
        SELECT "id", "xid", (extract(epoch FROM "occurred_at") * 1000)::bigint AS "ms",
               1 + floor(random() * 4294967296)::numeric AS "step"
          FROM "events"
      ), "numbered" AS (
        SELECT "id",
               max("ms") OVER (ORDER BY "xid", "id") AS "ms",
               sum("step") OVER (ORDER BY "xid", "id") AS "low"
          FROM "stepped"
      )
      UPDATE "events" e SET "public_id" = (
               lpad(to_hex(n."ms"), 12, '0')
               || lpad(to_hex(floor(n."low" / 1099511627776)::bigint), 10, '0')
               || lpad(to_hex(mod(n."low", 1099511627776)::bigint), 10, '0'))::uuid
        FROM "numbered" n WHERE e."id" = n."id"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "events_public_id_idx" ON "events" ("public_id")`);
    // What the settler takes next, in the order it numbers them.
    await queryRunner.query(
      `CREATE INDEX "events_unsettled_idx" ON "events" ("xid", "id") WHERE "public_id" IS NULL`,
    );
    await queryRunner.query(`DROP INDEX "events_feed_idx"`);
    await queryRunner.query(`DROP INDEX "events_of_owner_idx"`);
    await queryRunner.query(
      `CREATE INDEX "events_of_owner_idx" ON "events" ("owner_key_id", "public_id")
         WHERE "owner_key_id" IS NOT NULL`,
    );
    await queryRunner.query(`DROP INDEX "events_of_organization_idx"`);
    await queryRunner.query(
      `CREATE INDEX "events_of_organization_idx" ON "events" ("organization_id", "public_id")
         WHERE "readers" = 'owned'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "events_of_organization_idx"`);
    await queryRunner.query(
      `CREATE INDEX "events_of_organization_idx" ON "events" ("organization_id", "xid", "id")
         WHERE "readers" = 'owned'`,
    );
    await queryRunner.query(`DROP INDEX "events_of_owner_idx"`);
    await queryRunner.query(
      `CREATE INDEX "events_of_owner_idx" ON "events" ("owner_key_id", "xid", "id")
         WHERE "owner_key_id" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "events_feed_idx" ON "events" ("xid", "id")`);
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "public_id"`);
  }
}
