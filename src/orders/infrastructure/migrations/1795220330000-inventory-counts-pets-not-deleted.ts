import { MigrationInterface, QueryRunner } from 'typeorm';
import { INVENTORY_SHARDS } from './1795220000000-count-pets-by-status';

/**
 * A deleted pet leaves the inventory: the counting triggers (CountPetsByStatus1795220000000) count
 * only rows without `deleted_at`, so deleting a pet (an update setting it) takes one from its
 * status, exactly, in the same statement. No pet was deleted before, so the counts stand.
 */
export class InventoryCountsPetsNotDeleted1795220330000 implements MigrationInterface {
  name = 'InventoryCountsPetsNotDeleted1795220330000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.define(queryRunner, `WHERE "deleted_at" IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.define(queryRunner, '');
  }

  /** The three counting functions, over the changed rows that `counted` keeps. */
  private async define(queryRunner: QueryRunner, counted: string): Promise<void> {
    const shard = `pg_backend_pid() % ${INVENTORY_SHARDS}`;
    const upsert = `ON CONFLICT ("status", "shard")
          DO UPDATE SET "count" = "pet_status_counts"."count" + EXCLUDED."count"`;
    // Inserted rows count one each, deleted rows minus one: one function of each sign.
    const counting = (name: string, rows: string, count: string) =>
      queryRunner.query(`
      CREATE OR REPLACE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "pet_status_counts" ("status", "shard", "count")
        SELECT "status", ${shard}, ${count} FROM "${rows}" ${counted} GROUP BY "status"
        ${upsert};
        RETURN NULL;
      END $$`);
    await counting('pet_status_counts_add', 'changed_new', 'count(*)');
    await counting('pet_status_counts_remove', 'changed_old', '-count(*)');
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "pet_status_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "pet_status_counts" ("status", "shard", "count")
        SELECT "status", ${shard}, sum("delta") FROM (
          SELECT "status", 1 AS "delta" FROM "changed_new" ${counted}
          UNION ALL
          SELECT "status", -1 FROM "changed_old" ${counted}
        ) AS "changes"
        GROUP BY "status" HAVING sum("delta") <> 0
        ${upsert};
        RETURN NULL;
      END $$`);
  }
}
