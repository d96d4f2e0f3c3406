import { Pet } from './pet';

/**
 * A pet as the API answers it (GET /v1/pets/{petId}), carried by `pet.*` events: the pet itself,
 * under the name the other features know it by (they take it from the pets feature's ports), so
 * that a feature moving a pet without owning it (an order) records the same object the pets
 * feature answers, read from the pet's row inside the transaction of the change.
 */
export type PetPayload = Pet;
