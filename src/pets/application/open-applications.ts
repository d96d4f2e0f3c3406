import { PetId } from '../domain/pet';

/**
 * Port: how many open applications (submitted, under review, approved) each of some pets has.
 * Its adapter reads the applications feature's table in SQL, as the photos read `pets`: no feature
 * imports another. One answer for a whole page, never one per pet.
 */
export abstract class OpenApplications {
  /** The count of each pet that has any; a pet without open applications is absent. */
  abstract countsOf(petIds: readonly PetId[]): Promise<ReadonlyMap<PetId, number>>;
}
