import { NewPhoto, PetId, Photo, PhotoId } from '../domain/photo';
import { PhotoKey } from '../domain/photo-key';

/**
 * Port: the photos of the pets, by pet, in their order (positions 1 to n, no gaps). Every method
 * joins the transaction under way; a use case changing a pet's photos holds the pet first
 * (PetOwnership.ownerOf in its transaction), so the positions it reads stay as read.
 */
export abstract class PhotoRepository {
  abstract countOf(petId: PetId): Promise<number>;

  /** The pet's photos, by position. */
  abstract listOf(petId: PetId): Promise<Photo[]>;

  abstract find(petId: PetId, photoId: PhotoId): Promise<Photo | null>;

  /** Records the photo after the pet's others (position n + 1). */
  abstract add(photo: NewPhoto): Promise<Photo>;

  /**
   * Moves the photo to `position` (1 to n), the photos between its old and new place shifting by
   * one toward the place it left; returns it as moved. Null: the pet has no such photo.
   */
  abstract move(petId: PetId, photoId: PhotoId, position: number): Promise<Photo | null>;

  /** Removes the photo, the ones after it moving up by one; returns it as it was. Null: none. */
  abstract remove(petId: PetId, photoId: PhotoId): Promise<Photo | null>;

  /** Which of `keys` a photo (of any pet) still names. */
  abstract referenced(keys: readonly PhotoKey[]): Promise<PhotoKey[]>;
}
