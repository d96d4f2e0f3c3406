import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { EventRecorder } from '../../common/events/event-recorder';
import { OrganizationId } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { isEmptyPatch, Pet, petEvent, PetId, petPatch, PetPatchInput } from '../domain/pet';
import { checkUpdate } from '../domain/pet-rules';
import { admits, VersionPrecondition } from '../../common/versions';
import { PetNotFoundError, PetVersionMismatchError } from '../domain/pet.errors';
import { PetRepository } from './pet.repository';

@Injectable()
export class UpdatePet {
  constructor(
    private readonly pets: PetRepository,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  async execute(
    requester: Requester,
    id: PetId,
    input: PetPatchInput,
    precondition?: VersionPrecondition,
  ): Promise<Pet> {
    checkScope(['pets:manage'], requester.scopes);
    const patch = petPatch(input, this.clock.now());
    // Only its own organisation's staff change a pet: another's is not found, as if it did not
    // exist for this operation (a key without an organisation owns none).
    const owner = requester.organizationId;
    if (owner === null) throw new PetNotFoundError(id);
    // The change and its pet.updated commit together. `{}` writes nothing, and a patch of the
    // pet's own values changes nothing: neither records an event (its version is the same).
    const pet = isEmptyPatch(patch)
      ? await this.unchanged(id, owner, precondition)
      : await this.transactions.run(async () => {
          const update = await this.pets.update(
            id,
            owner,
            patch,
            precondition,
            (current, adoption) => checkUpdate(current, patch, adoption),
          );
          if (update?.changed) await this.events.record([petEvent('pet.updated', update.pet)]);
          return update?.pet ?? null;
        });
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }

  /** `{}` changes nothing: the pet as it is, if the precondition holds (a read, no write). */
  private async unchanged(
    id: PetId,
    owner: OrganizationId,
    precondition?: VersionPrecondition,
  ): Promise<Pet | null> {
    const found = await this.pets.findById(id);
    const pet = found?.organizationId === owner ? found : null;
    if (pet && !admits(precondition, pet.version)) {
      throw new PetVersionMismatchError(id, pet.version);
    }
    return pet;
  }
}
