import { MigrationInterface, QueryRunner } from 'typeorm';

/** Counter rows per status; writers spread over them by connection (see below). */
export const INVENTORY_SHARDS = 16;

/**
 * The inventory without a scan: `pet_status_counts` holds the number of pets of each status, kept
 * by triggers in the transaction of every change to `pets`, so it is exact whenever read.
 *
 * One row per status would make every create wait on the previous one's lock on that row. Each
 * status has INVENTORY_SHARDS rows instead, and a statement adds to the one its connection picks
 * (backend pid modulo the shards): concurrent writers on different connections touch different
 * rows, and the inventory sums at most 48 of them. The triggers are per statement, with the
 * statement's changed rows as a table, so a bulk insert costs one update per status, not per pet.
 */
export class CountPetsByStatus1795220000000 implements MigrationInterface {
  name = 'CountPetsByStatus1795220000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No pet changes between the count below and the triggers taking over.
    await queryRunner.query(`LOCK TABLE "pets" IN SHARE ROW EXCLUSIVE MODE`);
    await queryRunner.query(`
      CREATE TABLE "pet_status_counts" (
        "status" varchar(16) NOT NULL,
        "shard" smallint NOT NULL,
        "count" bigint NOT NULL,
        PRIMARY KEY ("status", "shard")
      )`);
    await queryRunner.query(`
      INSERT INTO "pet_status_counts" ("status", "shard", "count")
      SELECT "status", 0, count(*) FROM "pets" GROUP BY "status"`);
    await queryRunner.query(`
      CREATE FUNCTION "pet_status_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "pet_status_counts" ("status", "shard", "count")
        SELECT "status", pg_backend_pid() % ${INVENTORY_SHARDS}, count(*)
          FROM "changed_new" GROUP BY "status"
        ON CONFLICT ("status", "shard")
          DO UPDATE SET "count" = "pet_status_counts"."count" + EXCLUDED."count";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION "pet_status_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "pet_status_counts" ("status", "shard", "count")
        SELECT "status", pg_backend_pid() % ${INVENTORY_SHARDS}, sum("delta") FROM (
          SELECT "status", 1 AS "delta" FROM "changed_new"
          UNION ALL
          SELECT "status", -1 FROM "changed_old"
        ) AS "changes"
        GROUP BY "status" HAVING sum("delta") <> 0
        ON CONFLICT ("status", "shard")
          DO UPDATE SET "count" = "pet_status_counts"."count" + EXCLUDED."count";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION "pet_status_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "pet_status_counts" ("status", "shard", "count")
        SELECT "status", pg_backend_pid() % ${INVENTORY_SHARDS}, -count(*)
          FROM "changed_old" GROUP BY "status"
        ON CONFLICT ("status", "shard")
          DO UPDATE SET "count" = "pet_status_counts"."count" + EXCLUDED."count";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION "pet_status_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM "pet_status_counts";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "pets_counted_on_insert" AFTER INSERT ON "pets"
        REFERENCING NEW TABLE AS "changed_new"
        FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_add"()`);
    await queryRunner.query(`
      CREATE TRIGGER "pets_counted_on_update" AFTER UPDATE ON "pets"
        REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new"
        FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_move"()`);
    await queryRunner.query(`
      CREATE TRIGGER "pets_counted_on_delete" AFTER DELETE ON "pets"
        REFERENCING OLD TABLE AS "changed_old"
        FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_remove"()`);
    // TRUNCATE fires no delete trigger: it has one of its own.
    await queryRunner.query(`
      CREATE TRIGGER "pets_counted_on_truncate" AFTER TRUNCATE ON "pets"
        FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_clear"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "pets_counted_on_truncate" ON "pets"`);
    await queryRunner.query(`DROP TRIGGER "pets_counted_on_delete" ON "pets"`);
    await queryRunner.query(`DROP TRIGGER "pets_counted_on_update" ON "pets"`);
    await queryRunner.query(`DROP TRIGGER "pets_counted_on_insert" ON "pets"`);
    await queryRunner.query(`DROP FUNCTION "pet_status_counts_clear"()`);
    await queryRunner.query(`DROP FUNCTION "pet_status_counts_remove"()`);
    await queryRunner.query(`DROP FUNCTION "pet_status_counts_move"()`);
    await queryRunner.query(`DROP FUNCTION "pet_status_counts_add"()`);
    await queryRunner.query(`DROP TABLE "pet_status_counts"`);
  }
}
