import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each key was last rolled (null: never): a roll applies only if the key was not rolled
 * after its own request was received (a compare-and-set in its one UPDATE), so that of rolls of
 * one key in flight together, on any number of instances, exactly one wins and the others are
 * refused rather than handing out secrets the winner's roll has already replaced. Nullable, no
 * default: existing rows are not rewritten.
 */
export class ApiKeyRolledAt1795250100000 implements MigrationInterface {
  name = 'ApiKeyRolledAt1795250100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" ADD COLUMN "rolled_at" timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "rolled_at"`);
  }
}
