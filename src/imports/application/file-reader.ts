import { RowProblem } from '../../pets/application/ports/shelter-pets';
import { DomainError } from '../../common/domain-error';
import { ImportFormat } from '../domain/import';
import { FileCursor } from './import.repository';

/** A row read: the Pet body it states, or why it states none. */
export type ReadRow = { readonly row: number; readonly body: unknown } | RowProblem;

export interface RowsRead {
  /** The rows read, in order, at most as many as asked for. */
  readonly rows: readonly ReadRow[];
  /** A CSV file's header, when this read began at the file's start. */
  readonly header?: readonly string[];
  /** Where the next read begins. */
  readonly next: FileCursor;
  /** Nothing is left to read after `next`. */
  readonly ended: boolean;
}

/** The file cannot be read at all (a CSV quote never closed, …): the import fails. */
export class UnreadableFileError extends DomainError {
  readonly code = 'validation_failed';
}

/**
 * Port: rows from a window of a file. `window` holds the file's bytes from `from.byte`; `last`:
 * the window reaches the file's end. Only whole rows are read: a row the window cuts is left for
 * the next read.
 */
export abstract class FileReader {
  abstract read(
    format: ImportFormat,
    window: Buffer,
    from: FileCursor,
    options: { last: boolean; most: number; header: readonly string[] | null },
  ): Promise<RowsRead>;
}
