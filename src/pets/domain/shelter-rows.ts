/** One row of a shelter's file: its number in the file, and the pet it states (a Pet body). */
export interface StatedPet {
  /** Data rows count from 1 (a CSV's header is no row; in NDJSON, the line). */
  readonly row: number;
  /** A Pet body with its `externalId`, as a client would send it to createPet. */
  readonly pet: Readonly<Record<string, unknown>>;
}

/** Why a row was not imported: the member at fault (null: the row as a whole), as details say it. */
export interface RowProblem {
  readonly row: number;
  readonly field: string | null;
  /** `required`, `invalid`, `unknown_field`, `format`, or the refusal's error code. */
  readonly issue: string;
  readonly message: string;
}

/** What became of a row: the pet created, changed, left as it was, or the row's problem. */
export type RowOutcome = 'created' | 'updated' | 'unchanged' | RowProblem;
