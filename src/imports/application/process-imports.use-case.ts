import { Injectable } from '@nestjs/common';
import { ShelterPets } from '../../pets/application/ports/shelter-pets';
import { Transactions } from '../../common/transactions';
import { ImportProblem, MAX_IMPORT_ERRORS, MAX_IMPORT_ROWS, tally } from '../domain/import';
import { headerProblem } from '../domain/pet-columns';
import { FileReader, RowsRead, UnreadableFileError } from './file-reader';
import { ClaimedImport, ImportProgress, ImportRepository } from './import.repository';

/**
 * Rows imported in one step, in one transaction: memory and a step's time are bounded by it. A
 * step holds a database backend busy with the pets' indexes, and the requests that meet it wait:
 * measured at 100, 150, 250 and 500 rows (docs/performance.md), 150 kept the listing's p99 while
 * importing within 1.5× of idle and 100,000 rows within 60 s; 500 did not keep the p99.
 */
export const IMPORT_BATCH_ROWS = 150;
/**
 * Rows counted in one step, before any is imported. A step's parsing holds the instance's event
 * loop: 20,000 rows held it 150-250 ms, and the requests queued behind (the listing's p97.5 at
 * 400 ms during an import); 2,000 hold it about 11 ms.
 */
const COUNT_ROWS = 2_000;
/** The largest first window of a file a step reads; doubled while it holds no whole row. */
const WINDOW_BYTES = 1024 * 1024;
/** The smallest first window: a few rows of any file. */
const MIN_WINDOW_BYTES = 16 * 1024;

/**
 * One step of the imports' background work (docs/adr/0066), which any instance may take: the
 * oldest unfinished import, held for this step's transaction. First its rows are counted (a file
 * over 100,000 rows, unreadable, or with unknown columns fails before any row is imported), then
 * imported a batch a step through ShelterPets, the batch's pets, their events and the import's
 * progress committing together: an instance killed half-way leaves the last batch undone, and the
 * next step (on any instance) does it again from where the progress says.
 */
@Injectable()
export class ProcessImports {
  constructor(
    private readonly imports: ImportRepository,
    private readonly reader: FileReader,
    private readonly pets: ShelterPets,
    private readonly transactions: Transactions,
  ) {}

  /** True when an import was worked on (more may be waiting). */
  async execute(): Promise<boolean> {
    // Most looks find nothing: they open no transaction.
    if (!(await this.imports.anyUnfinished())) return false;
    return this.transactions.run(async () => {
      const claimed = await this.imports.claimNext();
      if (!claimed) return false;
      const progress = await this.step(claimed).catch((error: unknown) => {
        if (!(error instanceof UnreadableFileError)) throw error;
        return failed(claimed, error.message, 'format');
      });
      await this.imports.save(claimed.import.id, progress);
      return true;
    });
  }

  private async step(claimed: ClaimedImport): Promise<ImportProgress> {
    const { import: job, header } = claimed;
    const base = {
      status: 'running' as const,
      header,
      counting: claimed.counting,
      importing: claimed.importing,
      counted: claimed.counted,
      rows: job.rows,
      errors: job.errors,
      finished: false,
    };
    if (job.rows.total === null) {
      const read = await this.readRows(claimed, claimed.counting, COUNT_ROWS, header);
      if (read.header) {
        const problem = headerProblem(read.header);
        if (problem) return failed(claimed, problem, 'unknown_field');
      }
      const counted = claimed.counted + read.rows.length;
      if (counted > MAX_IMPORT_ROWS) {
        return failed(claimed, `The file has more than ${MAX_IMPORT_ROWS} rows.`, 'range');
      }
      return {
        ...base,
        header: read.header ?? header,
        counting: read.next,
        counted,
        rows: read.ended ? { ...job.rows, total: counted } : job.rows,
      };
    }
    const read = await this.readRows(claimed, claimed.importing, IMPORT_BATCH_ROWS, header);
    const stated = read.rows.flatMap((r) =>
      'body' in r ? [{ row: r.row, pet: r.body as Record<string, unknown> }] : [],
    );
    const outcomes = await this.pets.upsert(job.organizationId, stated, job.dryRun);
    // The rows' problems in their order: the reader's, and the upsert's.
    let next = 0;
    const all = read.rows.map((r) => ('body' in r ? outcomes[next++] : r));
    const problems = all.filter((o): o is Exclude<typeof o, string> => typeof o !== 'string');
    const errors: ImportProblem[] = [...job.errors, ...problems].slice(0, MAX_IMPORT_ERRORS);
    return {
      ...base,
      status: read.ended ? 'succeeded' : 'running',
      importing: read.next,
      rows: tally(job.rows, all),
      errors,
      finished: read.ended,
    };
  }

  /** Up to `most` whole rows from `from`, the window grown until it holds one or reaches the end. */
  private async readRows(
    claimed: ClaimedImport,
    from: { byte: number; row: number },
    most: number,
    header: readonly string[] | null,
  ): Promise<RowsRead> {
    for (let length = firstWindow(claimed, most); ; length *= 2) {
      const window = await this.imports.slice(claimed.import.id, from.byte, length);
      const last = from.byte + window.length >= claimed.size;
      const read = await this.reader.read(claimed.import.format, window, from, {
        last,
        most,
        header,
      });
      if (read.rows.length > 0 || read.header || last) return read;
    }
  }
}

/**
 * A first window about the size of `most` rows, by the rows counted so far: a step that takes 150
 * rows reads some 18 KB of a file of short rows, not a megabyte (which it read, and parsed, for
 * each batch: a 100,000-row import of 500-row batches read 200 MB).
 */
function firstWindow(claimed: ClaimedImport, most: number): number {
  if (claimed.counted === 0) return WINDOW_BYTES;
  const bytesPerRow = claimed.counting.byte / claimed.counted;
  return Math.min(WINDOW_BYTES, Math.max(MIN_WINDOW_BYTES, Math.ceil(bytesPerRow * most * 1.25)));
}

/** An import that cannot run at all: nothing of it is imported. */
function failed(claimed: ClaimedImport, message: string, issue: string): ImportProgress {
  return {
    status: 'failed',
    header: claimed.header,
    counting: claimed.counting,
    importing: claimed.importing,
    counted: claimed.counted,
    rows: { total: null, created: 0, updated: 0, unchanged: 0, failed: 0 },
    errors: [{ row: null, field: 'body', issue, message }],
    finished: true,
  };
}
