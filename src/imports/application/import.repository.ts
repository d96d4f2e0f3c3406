import { Import, ImportProblem, ImportRows, ImportStatus, NewImport } from '../domain/import';

/** Where reading an import's file stands: the next byte to read, and the rows read before it. */
export interface FileCursor {
  readonly byte: number;
  readonly row: number;
}

/** An import claimed for a step, with what its steps keep between them. */
export interface ClaimedImport {
  readonly import: Import;
  /** A CSV file's header, once read. */
  readonly header: readonly string[] | null;
  /** The file's size in bytes. */
  readonly size: number;
  /** Counting the rows (before any is imported): where it stands, and how many so far. */
  readonly counting: FileCursor;
  readonly counted: number;
  /** Importing the rows: where it stands. */
  readonly importing: FileCursor;
}

/** What a step leaves of an import. */
export interface ImportProgress {
  readonly status: ImportStatus;
  readonly header: readonly string[] | null;
  readonly counting: FileCursor;
  readonly counted: number;
  readonly importing: FileCursor;
  readonly rows: ImportRows;
  readonly errors: readonly ImportProblem[];
  readonly finished: boolean;
}

/** Port: the imports and their files. */
export abstract class ImportRepository {
  abstract add(newImport: NewImport): Promise<Import>;

  /** The import, if it is the organisation's. */
  abstract findOf(id: number, organizationId: number): Promise<Import | null>;

  /**
   * Whether any import is unfinished: one indexed read outside a transaction, so that an idle
   * instance's look costs no transaction.
   */
  abstract anyUnfinished(): Promise<boolean>;

  /**
   * The oldest import not finished that no one else is working on, held for the caller's
   * transaction (another instance takes the next one): a step's work and its progress commit
   * together, or neither does and the step is done again.
   */
  abstract claimNext(): Promise<ClaimedImport | null>;

  /** Up to `length` bytes of the import's file from byte `from`. */
  abstract slice(id: number, from: number, length: number): Promise<Buffer>;

  abstract save(id: number, progress: ImportProgress): Promise<void>;
}
