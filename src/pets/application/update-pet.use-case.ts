import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { isEmptyPatch, Pet, PetId, PetPatch, petPatch } from '../domain/pet';
import { checkUpdate } from '../domain/pet-rules';
import { admits, VersionPrecondition } from '../domain/pet-version';
import { PetNotFoundError, PetVersionMismatchError } from '../domain/pet.errors';
import { PetRepository } from './pet.repository';

@Injectable()
export class UpdatePet {
  constructor(
    private readonly pets: PetRepository,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  async execute(
    requester: Requester,
    id: PetId,
    input: PetPatch,
    precondition?: VersionPrecondition,
  ): Promise<Pet> {
    checkScope(['pets:write'], requester.scopes);
    const patch = petPatch(input);
    // The change and its pet.updated commit together. `{}` writes nothing, and a patch of the
    // pet's own values changes nothing: neither records an event (its version is the same).
    const pet = isEmptyPatch(patch)
      ? await this.unchanged(id, precondition)
      : await this.transactions.run(async () => {
          const update = await this.pets.update(id, patch, precondition, (current, adoption) =>
            checkUpdate(current, patch, adoption),
          );
          if (update?.changed)
            await this.events.record([{ type: 'pet.updated', data: update.pet }]);
          return update?.pet ?? null;
        });
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }

  /** `{}` changes nothing: the pet as it is, if the precondition holds (a read, no write). */
  private async unchanged(id: PetId, precondition?: VersionPrecondition): Promise<Pet | null> {
    const pet = await this.pets.findById(id);
    if (pet && !admits(precondition, pet.version)) {
      throw new PetVersionMismatchError(id, pet.version);
    }
    return pet;
  }
}
