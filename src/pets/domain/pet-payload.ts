import { PetPhoto } from './pet-photo';
import { PetProfile } from './pet-profile-shape';
import { PetStatus } from './pet-status';

/**
 * A pet as the API answers it (GET /v1/pets/{petId}), carried by `pet.*` events. Here so that
 * a feature moving a pet without owning it (an order) records the same object the pets feature
 * answers, read from the pet's row inside the transaction of the change.
 */
export interface PetPayload extends PetProfile {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status: PetStatus;
  readonly organizationId: number;
  /** Its id in the shelter's other system (v1.4), or null. */
  readonly externalId: string | null;
  readonly photos: readonly PetPhoto[];
  /** +1 on every change: a receiver drops an event older than the pet it holds. */
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}
