import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Imports of shelters' files (CONTRACT.md "Shelter data in and out (v1.4)"): the file itself
 * (`bytea`, stored out of line uncompressed, so that a step reads its window of it without the
 * rest), what its steps keep between them (the header, where counting and importing stand) and
 * what its staff read (status, counts, the first problems). Unfinished imports are found by a
 * partial index: the background work's claim reads only those.
 */
export class CreateImports1795240161000 implements MigrationInterface {
  name = 'CreateImports1795240161000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "imports" (
        "id" bigserial PRIMARY KEY,
        "organization_id" bigint NOT NULL REFERENCES "organizations" ("id"),
        "format" varchar(10) NOT NULL CHECK ("format" IN ('csv', 'ndjson')),
        "dry_run" boolean NOT NULL,
        "status" varchar(10) NOT NULL DEFAULT 'queued'
          CHECK ("status" IN ('queued', 'running', 'succeeded', 'failed')),
        "file" bytea NOT NULL,
        "size" integer NOT NULL,
        "header" text[],
        "counted_byte" bigint NOT NULL DEFAULT 0,
        "counted_row" integer NOT NULL DEFAULT 0,
        "counted" integer NOT NULL DEFAULT 0,
        "imported_byte" bigint NOT NULL DEFAULT 0,
        "imported_row" integer NOT NULL DEFAULT 0,
        "total" integer,
        "created" integer NOT NULL DEFAULT 0,
        "updated" integer NOT NULL DEFAULT 0,
        "unchanged" integer NOT NULL DEFAULT 0,
        "failed" integer NOT NULL DEFAULT 0,
        "errors" jsonb NOT NULL DEFAULT '[]',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "finished_at" timestamptz
      )`);
    await queryRunner.query(`ALTER TABLE "imports" ALTER COLUMN "file" SET STORAGE EXTERNAL`);
    await queryRunner.query(
      `CREATE INDEX "imports_unfinished_idx" ON "imports" ("id")
         WHERE "status" IN ('queued', 'running')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "imports"`);
  }
}
