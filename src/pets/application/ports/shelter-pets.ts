import type { PetPayload } from '../../domain/pet-payload';
import type { RowOutcome, StatedPet } from '../../domain/shelter-rows';

export type { RowOutcome, RowProblem, StatedPet } from '../../domain/shelter-rows';

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
