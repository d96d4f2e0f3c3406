import { NewPet, Pet } from '../domain/pet';
import { PetStatus } from '../domain/pet-status';

export interface PetPageQuery {
  /** Only pets with this status, when given. */
  status?: PetStatus;
  /** Only pets whose id is greater than this (keyset pagination). */
  after?: bigint;
  /** Maximum number of pets to return. */
  limit: number;
}

/** A client's promise that requests with this key are retries of one creation. */
export interface IdempotencyClaim {
  /** Whose keys these are (an API key): keys of different clients never meet. */
  scope: string;
  key: string;
  /** Fingerprint of the request, to tell a retry from a different request under the same key. */
  requestHash: string;
  /** Claims older than this are forgotten. */
  ttlSeconds: number;
}

export type IdempotentCreation =
  { outcome: 'created' | 'replayed'; pet: Pet } | { outcome: 'key_reused' };

/** Port: where pets are kept. Pages are ordered by ascending id. */
export abstract class PetRepository {
  abstract add(pet: NewPet): Promise<Pet>;
  /**
   * Adds the pet unless the claim's key was used before: then returns the pet created then
   * (same fingerprint) or `key_reused` (another fingerprint). Atomic, also under concurrent retries.
   */
  abstract addOnce(pet: NewPet, claim: IdempotencyClaim): Promise<IdempotentCreation>;
  abstract findById(id: bigint): Promise<Pet | null>;
  abstract findPage(query: PetPageQuery): Promise<Pet[]>;
}
