import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each index: its name, and what it orders live pets by. */
const INDEXES: [name: string, columns: string, condition?: string][] = [
  // A breed's pets in name order, by primary and by secondary (read one after the other, merged).
  ['pets_live_breed_primary_name_id_idx', `lower(profile #>> '{breed,primary}'), "name", "id"`],
  ['pets_live_breed_secondary_name_id_idx', `lower(profile #>> '{breed,secondary}'), "name", "id"`],
  // An age's pets in name order (each age asked for read so, merged).
  ['pets_live_age_name_id_idx', `(profile #>> '{age}'), "name", "id"`],
  // The pets with photos in name order.
  ['pets_live_with_photos_name_id_idx', '"name", "id"', `"photos"::text <> '[]'`],
  // An organisation's pets in name order: near a point, a page per nearby organisation.
  ['pets_live_organization_name_id_idx', '("organization_id" + 0), "name", "id"'],
];

/**
 * Pages that start from their filter (CONTRACT.md "Free is not unlimited"): a page in name order
 * of a breed, an age, the pets with photos or those near a point walked the name index and
 * checked each pet, so one whose filter matched nothing read every pet (200,069 rows at 200,000
 * pets, 420 ms). Each of these indexes leads with the filter, then the order, so that such a page
 * reads its filter's pets in the order and stops at the page's end (the statements are
 * SqlPetRepository's drivenPage): nothing matching, nothing read.
 *
 * A breed's and an age's are on `profile #>> '{…}'`, the same value as the id-ordered indexes'
 * `profile -> … ->> …` (PetFinding1795240152000), and an organisation's on `organization_id + 0`,
 * the key of PetsOfOrganizations1795230050000's index, spelled apart on purpose: the statements in
 * name order use this spelling, so only these indexes serve them. Given both, the planner without
 * statistics guesses a row or two for either, and the id-ordered index, a little smaller, and a
 * sort of every match came out cheaper by a hair (docs/adr/0050).
 */
export class PetPagesFromTheirFilter1795240159000 implements MigrationInterface {
  name = 'PetPagesFromTheirFilter1795240159000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, columns, condition] of INDEXES) {
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "pets" (${columns})
           WHERE "deleted_at" IS NULL${condition ? ` AND ${condition}` : ''}`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}
