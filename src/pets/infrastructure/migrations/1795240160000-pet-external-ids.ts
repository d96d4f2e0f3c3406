import { MigrationInterface, QueryRunner } from 'typeorm';
import { beforeUpdate } from './1795240151000-pet-profiles';

/** What PetPhotos1795240153000 counts as a change of a pet: the columns before this one. */
const BEFORE =
  '@."name", @."category_id", @."status", @."deleted_at", @."profile", @."photos"::text';

/**
 * An animal's id in its shelter's other system (v1.4, `externalId`): unique among an
 * organisation's live pets, so that an import finds the pet a row names (upsert by
 * `(organization, externalId)`), and a deleted pet's id may name a new one. Found by
 * `GET /v1/pets?externalId=` from an index of its own, in id order (the listing's keyset walk).
 * A change of it is a change of the pet: it moves `version`.
 */
export class PetExternalIds1795240160000 implements MigrationInterface {
  name = 'PetExternalIds1795240160000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "pets" ADD COLUMN "external_id" varchar(64)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "pets_live_organization_external_id_key"
         ON "pets" ("organization_id", "external_id")
         WHERE "deleted_at" IS NULL AND "external_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "pets_live_external_id_id_idx" ON "pets" ("external_id", "id")
         WHERE "deleted_at" IS NULL AND "external_id" IS NOT NULL`,
    );
    await queryRunner.query(beforeUpdate(`${BEFORE}, @."external_id"`));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(beforeUpdate(BEFORE));
    await queryRunner.query(`DROP INDEX "pets_live_external_id_id_idx"`);
    await queryRunner.query(`DROP INDEX "pets_live_organization_external_id_key"`);
    await queryRunner.query(`ALTER TABLE "pets" DROP COLUMN "external_id"`);
  }
}
