import { Injectable } from '@nestjs/common';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { Clock } from '../../common/clock';
import { EventRecorder } from '../../common/events/event-recorder';
import { creatingOrganization } from '../../common/ownership';
import { PET_PROFILE_MEMBERS } from '../domain/pet-profile-shape';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { newPet, NewPetInput, Pet, petEvent } from '../domain/pet';
import { PetRepository } from './pet.repository';

export interface Creation {
  pet: Pet;
  /** True when this answers a retry: the pet was created by an earlier request. */
  replayed: boolean;
}

/**
 * The profile's members as sent, for the fingerprint (absent and null alike: both say unknown). A
 * v1 body's fingerprint is the one it had before profiles (nothing appended), so that a retry
 * across the upgrade is still recognised.
 */
function profileSent(input: NewPetInput): unknown[] {
  const sent = PET_PROFILE_MEMBERS.map((member) => input[member]);
  return sent.every((value) => value === undefined) ? [] : sent.map((value) => value ?? null);
}

@Injectable()
export class CreatePet {
  constructor(
    private readonly pets: PetRepository,
    private readonly idempotency: Idempotency,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  async execute(
    requester: Requester,
    input: NewPetInput,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<Creation> {
    // Checked here too, not only at the HTTP edge (docs/adr/0021), before anything is stored.
    checkScope(['pets:write'], requester.scopes);
    // In the key's own organisation; a key without one (every v1 client) adds to organisation 1.
    const pet = newPet(input, creatingOrganization(requester), this.clock.now());
    // The pet and its event commit together; a replay below creates nothing, so records nothing.
    const add = () =>
      this.transactions.run(async () => {
        const created = await this.pets.add(pet);
        await this.events.record([petEvent('pet.created', created)]);
        return created;
      });
    if (!idempotencyKey) return { pet: await add(), replayed: false };
    // The fingerprint is of the request as sent: a retry omitting `status` is not the same
    // request as one giving `status: "available"`.
    const fingerprint = fingerprintOf([
      input.name,
      input.categoryId,
      input.status ?? null,
      ...profileSent(input),
    ]);
    const { value, replayed } = await this.idempotency.once(
      { ...idempotencyKey, fingerprint },
      add,
    );
    return { pet: value, replayed };
  }
}
