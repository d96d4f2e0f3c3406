import { OrganizationId } from '../../../common/ownership';
import { PetStatus } from '../../domain/pet-status';

/** A pet as the other features see it: which organisation owns it, its status, whether deleted. */
export interface PetOwner {
  readonly petId: number;
  readonly organizationId: OrganizationId;
  readonly status: PetStatus;
  /** Only ever true when asked for (`deleted: true`): a deleted pet is otherwise none. */
  readonly deleted: boolean;
}

export interface PetOwnershipOptions {
  /** Inside a transaction: the pet's row stays locked until the transaction ends. */
  readonly lock?: boolean;
  /**
   * A deleted pet too, as `deleted: true`: for a feature whose answer differs between a pet
   * that never was and one that was removed (an application to it is 409, not 404).
   */
  readonly deleted?: boolean;
}

/**
 * Port, the pets feature's answer to "which organisation owns this pet" (docs/adr/0068): every
 * feature asks it, then applies the one staff rule (`isStaffOf`, src/common/ownership.ts) after
 * its scope check: a missing scope is a 403, a pet of another organisation a 404. Exported by
 * PetPortsModule; implemented by the pets feature, the one reader and writer of `pets`.
 */
export abstract class PetOwnership {
  /**
   * The pet's owner and status, or null when there is no such pet (a deleted one included, unless
   * `deleted`). With `lock`, inside a transaction, the pet's row stays locked until the transaction
   * ends, so that changes that depend on the pet happen one at a time (docs/adr/0046: `pets` after
   * `orders`).
   */
  abstract ownerOf(petId: number, options?: PetOwnershipOptions): Promise<PetOwner | null>;

  /**
   * The organisation of a pet this instance has read before, without asking: a pet never changes
   * organisation. Undefined for a pet not read lately. For a use case that sends its next
   * statement with the pet's (Transactions.together), and checks it against `ownerOf`'s answer.
   * Not abstract, so that an implementation of this port written before it (a team's own, a
   * generated feature's fake) still compiles: one that remembers nothing is always correct, and
   * its callers then read the pet first.
   */
  knownOrganizationOf(_petId: number): OrganizationId | undefined {
    return undefined;
  }
}
