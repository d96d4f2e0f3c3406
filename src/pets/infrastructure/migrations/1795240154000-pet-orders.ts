import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each index: its name, and the order it keeps the live pets in. */
const INDEXES: [name: string, columns: string][] = [
  ['pets_live_created_id_idx', '"created_at", "id"'],
  ['pets_live_name_id_idx', '"name", "id"'],
  ['pets_live_shuffled_id_idx', 'hashint8("id"), "id"'],
  // With a status, the commonest filter: that status's pets in the order.
  ['pets_live_status_created_id_idx', '"status", "created_at", "id"'],
  ['pets_live_status_name_id_idx', '"status", "name", "id"'],
  ['pets_live_status_shuffled_id_idx', '"status", hashint8("id"), "id"'],
];

/**
 * The orders a listing may ask for besides the ids' (CONTRACT.md "Finding", `sort`): newest first
 * (the creation index read backwards), by name, and shuffled (`hashint8(id)`, a fixed
 * pseudo-random key of each id: a seed says where a reading starts). Each is an index of live
 * pets, alone and after the status, so that a page is read in its order from its start or from the
 * pet after, and stops at its end: no sort of every match (docs/adr/0055).
 */
export class PetOrders1795240154000 implements MigrationInterface {
  name = 'PetOrders1795240154000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, columns] of INDEXES) {
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "pets" (${columns}) WHERE "deleted_at" IS NULL`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}
