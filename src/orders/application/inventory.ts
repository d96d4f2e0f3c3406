import { PetStatus } from '../../pets/application/ports/pet-types';

export type Inventory = Record<PetStatus, number>;

/** Port: exact counts of pets by status, without counting them one by one. */
export abstract class PetInventory {
  abstract counts(): Promise<Partial<Inventory>>;

  /** One organisation's live pets by status (v1.4); an unknown organisation has none. */
  abstract countsOf(organizationId: number): Promise<Partial<Inventory>>;
}
