import { Injectable } from '@nestjs/common';
import { PET_STATUSES } from '../../common/pet-status';
import { checkScope } from '../../common/scopes';
import { Requester } from '../domain/order';
import { Inventory, PetInventory } from './inventory';

@Injectable()
export class GetInventory {
  constructor(private readonly inventory: PetInventory) {}

  async execute(requester: Requester): Promise<Inventory> {
    checkScope(['pets:read'], requester.scopes);
    const counts = await this.inventory.counts();
    // Every status, in the order the specification lists them, none left out when zero.
    return Object.fromEntries(
      PET_STATUSES.map((status) => [status, counts[status] ?? 0]),
    ) as Inventory;
  }
}
