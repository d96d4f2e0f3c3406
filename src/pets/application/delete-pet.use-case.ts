import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { Pet, petEvent, PetId } from '../domain/pet';
import { checkRemoval } from '../domain/pet-rules';
import { VersionPrecondition } from '../../common/versions';
import { PetNotFoundError } from '../domain/pet.errors';
import { PetRepository } from './pet.repository';

@Injectable()
export class DeletePet {
  constructor(
    private readonly pets: PetRepository,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  /** Returns the pet as it was deleted. */
  async execute(requester: Requester, id: PetId, precondition?: VersionPrecondition): Promise<Pet> {
    checkScope(['pets:manage'], requester.scopes);
    // Only its own organisation's staff remove a pet: another's is not found.
    const owner = requester.organizationId;
    if (owner === null) throw new PetNotFoundError(id);
    // The deletion and its pet.deleted, with the pet as it was, commit together.
    const removed = await this.transactions.run(async () => {
      const pet = await this.pets.remove(id, owner, precondition, checkRemoval);
      if (pet) await this.events.record([petEvent('pet.deleted', pet)]);
      return pet;
    });
    if (!removed) throw new PetNotFoundError(id);
    return removed;
  }
}
