import { isStaffOf, OrganizationId } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { PhotoKey } from './photo-key';
import { PhotoSize } from './photo-variants';
import { PetNotOwnedError, PhotoPositionError } from './photo.errors';

export type PhotoId = number;
export type PetId = number;

/** The most photos a pet may have. */
export const MAX_PHOTOS_PER_PET = 12;

/**
 * A photo of a pet: its place among the pet's photos (1 is the primary, the others follow without
 * gaps), the size of its `full` variant, and the key of each size's variant.
 */
export interface Photo {
  readonly id: PhotoId;
  readonly petId: PetId;
  readonly position: number;
  readonly width: number;
  readonly height: number;
  readonly variants: Readonly<Record<PhotoSize, PhotoKey>>;
  /** RFC 3339, UTC. */
  readonly createdAt: string;
}

/** A photo to record: it goes after the pet's other photos. */
export type NewPhoto = Omit<Photo, 'id' | 'position' | 'createdAt'>;

/**
 * Only a key of the organisation owning a pet may change its photos. Another organisation's pet,
 * like a pet that does not exist (`owner` null), is not found: its existence is not revealed to
 * an operation the key may not perform on it. A key of no organisation owns no pet.
 */
export function checkOwnership(
  petId: PetId,
  owner: { readonly organizationId: OrganizationId } | null,
  requester: Requester,
): void {
  if (owner === null || !isStaffOf(requester, owner.organizationId)) {
    throw new PetNotOwnedError(petId);
  }
}

/** A photo may move to any place among the pet's `count` photos: 1 to `count`. */
export function checkPosition(position: number, count: number): void {
  if (!Number.isInteger(position) || position < 1 || position > count) {
    throw new PhotoPositionError(position, count);
  }
}
