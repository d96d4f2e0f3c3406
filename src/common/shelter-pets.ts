import { PetPayload } from './events/pet-payload';

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

/**
 * Port: an organisation's animals as its files move them in and out (CONTRACT.md "Shelter data in
 * and out (v1.4)"). The pets feature answers it (it alone writes pets, with its rules and events);
 * imports and exports ask it. `upsert` joins the caller's transaction: the rows' changes, their
 * `pet.*` events and the caller's progress commit together.
 */
export abstract class ShelterPets {
  /**
   * Creates or changes the organisation's pet each row names by its `externalId`, each row on its
   * own (a row's problem never stops the others); with `dryRun` checks every row and changes
   * nothing. A row equal to its pet changes nothing and records no event.
   */
  abstract upsert(
    organizationId: number,
    rows: readonly StatedPet[],
    dryRun: boolean,
  ): Promise<RowOutcome[]>;

  /** The organisation's live pets after id `after`, ascending, at most `limit`: a keyset walk. */
  abstract page(organizationId: number, after: number, limit: number): Promise<PetPayload[]>;
}
