import { MigrationInterface, QueryRunner } from 'typeorm';
import { keyedNames } from '../../../common/unique-name';

/**
 * Organisations' `name_key` recomputed by the unique-name rule of v1.3 (docs/adr/0045): before,
 * NFKC, trimming and lower case; now also invisible characters removed and full case folding
 * (`Straße` and `STRASSE` are one name). Names stored before that share a new key: the oldest
 * organisation (lowest id) keeps its name, each later one is renamed to its name followed by
 * ` (organization <id>)` (shortened to fit 100 characters), so that every key is unique and no
 * organisation loses its name; its staff rename it. The unique constraint is dropped while the
 * keys change, as PostgreSQL checks it row by row, and put back once they are all written.
 */
export class OrganizationNameKeysFolded1795231110000 implements MigrationInterface {
  name = 'OrganizationNameKeysFolded1795231110000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const named: { id: string; name: string }[] = await queryRunner.query(
      `SELECT "id", "name" FROM "organizations" ORDER BY "id"`,
    );
    const keyed = keyedNames(named, 'organization', 100);
    await queryRunner.query(
      `ALTER TABLE "organizations" DROP CONSTRAINT "organizations_name_key_unique"`,
    );
    if (keyed.length > 0) {
      await queryRunner.query(
        `UPDATE "organizations" AS o SET "name" = v.name, "name_key" = v.key
           FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(id, name, key)
          WHERE o."id" = v.id AND (o."name", o."name_key") IS DISTINCT FROM (v.name, v.key)`,
        [keyed.map(({ id }) => id), keyed.map(({ name }) => name), keyed.map(({ key }) => key)],
      );
    }
    await queryRunner.query(
      `ALTER TABLE "organizations" ADD CONSTRAINT "organizations_name_key_unique" UNIQUE ("name_key")`,
    );
  }

  async down(): Promise<void> {
    // The keys stay as they are: every one is unique under the earlier rule too, which was coarser.
  }
}
