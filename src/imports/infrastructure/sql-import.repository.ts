import { Injectable } from '@nestjs/common';
import { sqlInstant } from '../../platform/database/sql-instant';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { ClaimedImport, ImportProgress, ImportRepository } from '../application/import.repository';
import { Import, ImportFormat, ImportProblem, ImportStatus, NewImport } from '../domain/import';

const COLUMNS = `id, organization_id AS "organizationId", format, dry_run AS "dryRun", status,
  total, created, updated, unchanged, failed, errors,
  ${sqlInstant('created_at')} AS "createdAt", ${sqlInstant('finished_at')} AS "finishedAt"`;

const INSERT: SqlStatement = {
  name: 'imports_insert',
  text: `INSERT INTO imports (organization_id, format, dry_run, file, size)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
};
const FIND_OF: SqlStatement = {
  name: 'imports_find_of',
  text: `SELECT ${COLUMNS} FROM imports WHERE id = $1 AND organization_id = $2`,
};
/** The oldest unfinished import no other transaction holds (another instance skips it). */
const CLAIM: SqlStatement = {
  name: 'imports_claim',
  text: `SELECT ${COLUMNS}, header, size, counted_byte AS "countedByte",
           counted_row AS "countedRow", counted, imported_byte AS "importedByte",
           imported_row AS "importedRow"
         FROM imports WHERE status IN ('queued', 'running')
         ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
};
/** Whether there is work, on the unfinished imports' partial index. */
const ANY_UNFINISHED: SqlStatement = {
  name: 'imports_any_unfinished',
  text: `SELECT 1 FROM imports WHERE status IN ('queued', 'running') LIMIT 1`,
};
/** A window of the file: stored out of line uncompressed, only its chunks are read. */
const SLICE: SqlStatement = {
  name: 'imports_slice',
  text: `SELECT substring(file FROM $2::int + 1 FOR $3::int) AS "bytes" FROM imports WHERE id = $1`,
};
const SAVE: SqlStatement = {
  name: 'imports_save',
  text: `UPDATE imports SET status = $2, header = $3, counted_byte = $4, counted_row = $5,
           counted = $6, imported_byte = $7, imported_row = $8, total = $9, created = $10,
           updated = $11, unchanged = $12, failed = $13, errors = $14,
           finished_at = CASE WHEN $15::boolean THEN now() END
         WHERE id = $1`,
};

interface ImportRow {
  id: string;
  organizationId: string;
  format: ImportFormat;
  dryRun: boolean;
  status: ImportStatus;
  total: number | null;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: ImportProblem[];
  createdAt: string;
  finishedAt: string | null;
}

const toImport = (row: ImportRow): Import => ({
  id: Number(row.id),
  organizationId: Number(row.organizationId),
  status: row.status,
  format: row.format,
  dryRun: row.dryRun,
  rows: {
    total: row.total,
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    failed: row.failed,
  },
  errors: row.errors,
  createdAt: row.createdAt,
  finishedAt: row.finishedAt,
});

@Injectable()
export class SqlImportRepository extends ImportRepository {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async add({ organizationId, format, dryRun, file }: NewImport): Promise<Import> {
    const [row] = await this.sql.query<ImportRow>(INSERT, [
      organizationId,
      format,
      dryRun,
      Buffer.from(file.buffer, file.byteOffset, file.byteLength),
      file.byteLength,
    ]);
    return toImport(row);
  }

  async findOf(id: number, organizationId: number): Promise<Import | null> {
    const [row] = await this.sql.query<ImportRow>(FIND_OF, [id, organizationId]);
    return row ? toImport(row) : null;
  }

  async anyUnfinished(): Promise<boolean> {
    return (await this.sql.query(ANY_UNFINISHED, [])).length > 0;
  }

  async claimNext(): Promise<ClaimedImport | null> {
    const [row] = await this.sql.query<
      ImportRow & {
        header: string[] | null;
        size: number;
        countedByte: string;
        countedRow: number;
        counted: number;
        importedByte: string;
        importedRow: number;
      }
    >(CLAIM, []);
    if (!row) return null;
    return {
      import: toImport(row),
      header: row.header,
      size: row.size,
      counting: { byte: Number(row.countedByte), row: row.countedRow },
      counted: row.counted,
      importing: { byte: Number(row.importedByte), row: row.importedRow },
    };
  }

  async slice(id: number, from: number, length: number): Promise<Buffer> {
    const [row] = await this.sql.query<{ bytes: Buffer }>(SLICE, [id, from, length]);
    return row.bytes;
  }

  async save(id: number, p: ImportProgress): Promise<void> {
    await this.sql.query(SAVE, [
      id,
      p.status,
      p.header,
      p.counting.byte,
      p.counting.row,
      p.counted,
      p.importing.byte,
      p.importing.row,
      p.rows.total,
      p.rows.created,
      p.rows.updated,
      p.rows.unchanged,
      p.rows.failed,
      JSON.stringify(p.errors),
      p.finished,
    ]);
  }
}
