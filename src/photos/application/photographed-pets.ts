import { PetPayload } from '../../common/events/pet-payload';
import { PetId } from '../domain/photo';

/**
 * Port: what the photos feature needs of the pets it photographs, in its own words. Its adapter
 * reads and updates the `pets` table in SQL, as the orders' PetInventory reads it: no feature
 * imports another.
 */
export abstract class PhotographedPets {
  /**
   * The organisation owning the pet, or null when there is no such pet (a deleted one included).
   * Inside a transaction the pet's row stays locked until the transaction ends, so that changes
   * to one pet's photos (their count, their positions) happen one at a time.
   */
  abstract ownerOf(petId: PetId): Promise<number | null>;

  /**
   * Records that the pet's photos changed, in the caller's transaction: the pet counts a new
   * version, as for any change. Answers the pet as the API then shows it, its photos included, for
   * the `pet.updated` event.
   */
  abstract photosChanged(petId: PetId): Promise<PetPayload>;
}
