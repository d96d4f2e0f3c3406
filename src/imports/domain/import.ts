import type { RowProblem } from '../../pets/application/ports/shelter-pets';

export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const IMPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The largest file an import takes, in bytes (50 MiB), and the most data rows. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 100_000;
/** An import keeps the first this many row problems (its `rows.failed` counts them all). */
export const MAX_IMPORT_ERRORS = 1_000;

export interface ImportRows {
  /** Data rows in the file: null until the file has been read through once. */
  readonly total: number | null;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
}

/** A file being imported (CONTRACT.md "Shelter data in and out (v1.4)"), as its staff read it. */
export interface Import {
  readonly id: number;
  readonly organizationId: number;
  readonly status: ImportStatus;
  readonly format: ImportFormat;
  readonly dryRun: boolean;
  readonly rows: ImportRows;
  /** The first MAX_IMPORT_ERRORS problems; a `failed` import's one problem has no row (null). */
  readonly errors: readonly ImportProblem[];
  readonly createdAt: string;
  readonly finishedAt: string | null;
}

/** A row's problem, or (row null) the file's: why an import could not run at all. */
export type ImportProblem = Omit<RowProblem, 'row'> & { readonly row: number | null };

/** An import not stored yet: the file, whose, and how. */
export interface NewImport {
  readonly organizationId: number;
  readonly format: ImportFormat;
  readonly dryRun: boolean;
  readonly file: Uint8Array;
}

/** The counts a batch adds to an import's. */
export function tally(
  rows: ImportRows,
  outcomes: readonly ('created' | 'updated' | 'unchanged' | RowProblem)[],
): ImportRows {
  const counts = { ...rows };
  for (const outcome of outcomes) {
    if (typeof outcome === 'string') counts[outcome] += 1;
    else counts.failed += 1;
  }
  return counts;
}
