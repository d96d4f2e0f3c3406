import { PetPayload } from '../../domain/pet-payload';
import { PetPhoto } from '../../domain/pet-photo';

/**
 * Port, the pets feature's side of a pet's photos (docs/adr/0054, 0068): the photos feature keeps
 * the photos and hands the pet their list as its answers show them; the pets feature writes it on
 * the pet, in the caller's transaction (the pet locked first, by PetOwnership.ownerOf): a new
 * version, as for any change. Exported by PetPortsModule.
 */
export abstract class PetPhotoProjection {
  /**
   * Shows `photos` (in their positions' order) on the live pet, and answers the pet as the API
   * then shows it, for the `pet.updated` event; null when the pet is deleted (nothing changed).
   */
  abstract show(petId: number, photos: readonly PetPhoto[]): Promise<PetPayload | null>;
}
