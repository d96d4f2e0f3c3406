import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { Pet, PetId } from '../domain/pet';
import { checkRemoval } from '../domain/pet-rules';
import { VersionPrecondition } from '../domain/pet-version';
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
    checkScope(['pets:write'], requester.scopes);
    // The deletion and its pet.deleted, with the pet as it was, commit together.
    const removed = await this.transactions.run(async () => {
      const pet = await this.pets.remove(id, precondition, checkRemoval);
      if (pet) await this.events.record([{ type: 'pet.deleted', data: pet }]);
      return pet;
    });
    if (!removed) throw new PetNotFoundError(id);
    return removed;
  }
}
