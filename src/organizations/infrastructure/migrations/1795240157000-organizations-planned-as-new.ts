import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On a fresh database, the organisations table is left as PostgreSQL plans a new table, as every
 * other table leaves the migrations (docs/adr/0050, addendum). The indexes built here after the
 * house organisation was inserted (OrganizationNameKeysFolded1795231110000,
 * OrganizationsNearIndexOnly1795240155000) recorded it as one row on one page. Until the table is
 * next analysed (never, without autovacuum), the plans that prepared statements keep from the
 * first minutes then read organisations by sequential scan: an organisation by id read all
 * 10,019 rows at 10,019 (1.47 ms, against 0.12 ms by key), the pages of organisations and of pets
 * near a point sorted every match, and PostgreSQL's own foreign-key check of each new pet read
 * every organisation too.
 * A table never vacuumed is planned as at least ten pages, where the indexes win.
 *
 * Only TRUNCATE gives a table that state again (ANALYZE and VACUUM record the one row), so this
 * empties organisations and every table that refers to them, and puts the house organisation back
 * as it was. It does so only where all of those hold nothing else, that is on a database fresh
 * from the migrations; anywhere else the statistics describe real rows, and it changes nothing.
 */
export class OrganizationsPlannedAsNew1795240157000 implements MigrationInterface {
  name = 'OrganizationsPlannedAsNew1795240157000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DO $$
      DECLARE
        referring regclass;
        house organizations;
        columns text;
        occupied boolean;
      BEGIN
        LOCK TABLE organizations IN ACCESS EXCLUSIVE MODE;
        IF (SELECT count(*) FROM organizations) <> 1 THEN
          RETURN;
        END IF;
        -- The tables a cascading truncation empties: those whose foreign keys lead to organisations.
        FOR referring IN
          WITH RECURSIVE referrers AS (
            SELECT conrelid AS relation FROM pg_catalog.pg_constraint
             WHERE contype = 'f' AND confrelid = 'organizations'::regclass
            UNION
            SELECT c.conrelid FROM pg_catalog.pg_constraint c
              JOIN referrers r ON c.contype = 'f' AND c.confrelid = r.relation
          )
          SELECT relation FROM referrers
        LOOP
          EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', referring);
          EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', referring) INTO STRICT occupied;
          IF occupied THEN
            RETURN;
          END IF;
        END LOOP;
        house := (SELECT o FROM organizations o);
        columns := (
          SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum)
            FROM pg_catalog.pg_attribute
           WHERE attrelid = 'organizations'::regclass AND attnum > 0 AND NOT attisdropped
             AND attgenerated = ''
        );
        -- In a subtransaction of its own (a block that handles exceptions is one), the truncation
        -- gives the table a new file, recorded as never vacuumed. In the transaction that created the
        -- table (all of a fresh database's migrations run in one) it would empty the file in place
        -- and record zero rows instead, which plans a page of organisations as a sequential scan.
        BEGIN
          TRUNCATE organizations CASCADE;
          EXECUTE format(
            'INSERT INTO organizations (%1$s) OVERRIDING SYSTEM VALUE SELECT %1$s FROM (SELECT ($1).*) h',
            columns
          ) USING house;
        EXCEPTION WHEN OTHERS THEN
          RAISE;
        END;
      END $$`);
  }

  async down(): Promise<void> {
    // The rows are as they were; only the statistics differ, and they are not part of the schema.
  }
}
