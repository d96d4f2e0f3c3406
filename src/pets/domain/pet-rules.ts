import { changesStatus, Pet, PetPatch } from './pet';
import { PetHasOpenOrderError } from './pet.errors';

/**
 * What the catalogue needs to know of a pet's adoption before changing it: whether an order for it
 * is open (`placed` or `approved`). The repository finds it out with the pet locked, so nothing
 * changes between the answer and the change it allows.
 */
export interface Adoption {
  readonly openOrder: boolean;
}

/**
 * While an order is open, the order owns the pet's status (it made the pet `pending`, and will
 * make it `sold` or `available`): a change of status by hand is refused; every other field may
 * still change, and a patch that leaves the status as it is passes.
 */
export function checkUpdate(pet: Pet, patch: PetPatch, { openOrder }: Adoption): void {
  if (openOrder && changesStatus(pet, patch)) {
    throw new PetHasOpenOrderError(pet.id, 'its status cannot be changed by hand');
  }
}

/**
 * A pet with an open order cannot be deleted: the adoption under way would lose its animal. Once
 * every order of it is delivered or cancelled it may go; those orders keep naming it.
 */
export function checkRemoval(pet: Pet, { openOrder }: Adoption): void {
  if (openOrder) throw new PetHasOpenOrderError(pet.id, 'it cannot be deleted');
}
