import { PetPayload } from '../../pets/application/ports/pet-types';
import { PetId } from '../domain/photo';

/**
 * Port: what the photos feature needs of the pets it photographs, in its own words. Its adapter
 * reads the photos and shows them on the pet through the pets feature (PetPhotoProjection). Which organisation owns a pet, and its row's lock, is the pets
 * feature's own port (PetOwnership, docs/adr/0068).
 */
export abstract class PhotographedPets {
  /**
   * Records that the pet's photos changed, in the caller's transaction (the pet locked by
   * PetOwnership.ownerOf): the pet counts a new version, as for any change. Answers the pet as the
   * API then shows it, its photos included, for the `pet.updated` event.
   */
  abstract photosChanged(petId: PetId): Promise<PetPayload>;
}
