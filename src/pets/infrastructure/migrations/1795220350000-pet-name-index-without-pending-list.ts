import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trigram index takes each new entry at once instead of in a pending list: a search then never
 * scans a list of recent entries, which creates and status changes (no pet update is HOT) kept
 * growing between flushes (docs/adr/0029).
 */
export class PetNameIndexWithoutPendingList1795220350000 implements MigrationInterface {
  name = 'PetNameIndexWithoutPendingList1795220350000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX "pets_name_trgm_idx" SET (fastupdate = off)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX "pets_name_trgm_idx" RESET (fastupdate)`);
  }
}
