import { OrganizationId } from '../../../common/ownership';
import { PetStatus } from '../../domain/pet-status';

/** A live pet as the other features see it: which organisation owns it, and its status. */
export interface PetOwner {
  readonly petId: number;
  readonly organizationId: OrganizationId;
  readonly status: PetStatus;
}

/**
 * Port, the pets feature's answer to "which organisation owns this pet" (docs/adr/0068): every
 * feature asks it, then applies the one staff rule (`isStaffOf`, src/common/ownership.ts) after
 * its scope check: a missing scope is a 403, a pet of another organisation a 404. Exported by
 * PetPortsModule; implemented by the pets feature, the one reader and writer of `pets`.
 */
export abstract class PetOwnership {
  /**
   * The pet's owner and status, or null when there is no such pet (a deleted one included). With
   * `lock`, inside a transaction, the pet's row stays locked until the transaction ends, so that
   * changes that depend on the pet happen one at a time (docs/adr/0046: `pets` after `orders`).
   */
  abstract ownerOf(petId: number, options?: { lock?: boolean }): Promise<PetOwner | null>;
}
