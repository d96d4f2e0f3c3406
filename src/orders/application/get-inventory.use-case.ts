import { Injectable } from '@nestjs/common';
import { PET_STATUSES } from '../../pets/application/ports/pet-types';
import { checkScope } from '../../common/scopes';
import { Requester } from '../domain/order';
import { Inventory, PetInventory } from './inventory';

@Injectable()
export class GetInventory {
  constructor(private readonly inventory: PetInventory) {}

  /** Every pet's counts, or (v1.4) one organisation's: zeros for one without pets, or none. */
  async execute(requester: Requester, organizationId?: number): Promise<Inventory> {
    checkScope(['pets:read'], requester.scopes);
    const counts =
      organizationId === undefined
        ? await this.inventory.counts()
        : await this.inventory.countsOf(organizationId);
    // Every status, in the order the specification lists them, none left out when zero.
    return Object.fromEntries(
      PET_STATUSES.map((status) => [status, counts[status] ?? 0]),
    ) as Inventory;
  }
}
