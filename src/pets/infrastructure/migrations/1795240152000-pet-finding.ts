import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each index: its name, and what it orders live pets by before their id. */
const INDEXES: [name: string, expression: string][] = [
  ['pets_live_age_id_idx', `(profile ->> 'age')`],
  ['pets_live_sex_id_idx', `(profile ->> 'sex')`],
  ['pets_live_size_id_idx', `(profile ->> 'size')`],
  ['pets_live_breed_primary_id_idx', `(lower(profile -> 'breed' ->> 'primary'))`],
  ['pets_live_breed_secondary_id_idx', `(lower(profile -> 'breed' ->> 'secondary'))`],
  ['pets_live_house_trained_id_idx', `(profile -> 'attributes' ->> 'houseTrained')`],
  ['pets_live_special_needs_id_idx', `(profile -> 'attributes' ->> 'specialNeeds')`],
];
const GOOD_WITH = ['children', 'dogs', 'cats'];

/**
 * Finding pets by their profile (CONTRACT.md "Finding"): for each filter an index of live pets in
 * the filter's value, then id order, so a page of one filter is read in order from its index and
 * stops at the page's end, as a page of a status is (docs/adr/0050): no sort of every match, no
 * scan of the table, with statistics or without. "Good with" each is a partial index of the ids
 * whose environment says true. Combined filters walk the most selective and check the rest.
 */
export class PetFinding1795240152000 implements MigrationInterface {
  name = 'PetFinding1795240152000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, expression] of INDEXES) {
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "pets" (${expression}, "id") WHERE "deleted_at" IS NULL`,
      );
    }
    for (const word of GOOD_WITH) {
      await queryRunner.query(
        `CREATE INDEX "pets_live_good_with_${word}_id_idx" ON "pets" ("id")
           WHERE "deleted_at" IS NULL AND profile -> 'environment' ->> '${word}' = 'true'`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const word of GOOD_WITH) {
      await queryRunner.query(`DROP INDEX "pets_live_good_with_${word}_id_idx"`);
    }
    for (const [name] of INDEXES) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}
