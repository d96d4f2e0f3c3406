import { Injectable } from '@nestjs/common';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { newPet, NewPetInput, Pet } from '../domain/pet';
import { PetRepository } from './pet.repository';

export interface Creation {
  pet: Pet;
  /** True when this answers a retry: the pet was created by an earlier request. */
  replayed: boolean;
}

@Injectable()
export class CreatePet {
  constructor(
    private readonly pets: PetRepository,
    private readonly idempotency: Idempotency,
  ) {}

  async execute(
    requester: Requester,
    input: NewPetInput,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<Creation> {
    // Checked here too, not only at the HTTP edge (docs/adr/0021), before anything is stored.
    checkScope(['pets:write'], requester.scopes);
    const pet = newPet(input);
    if (!idempotencyKey) return { pet: await this.pets.add(pet), replayed: false };
    // The fingerprint is of the request as sent: a retry omitting `status` is not the same
    // request as one giving `status: "available"`.
    const fingerprint = fingerprintOf([input.name, input.categoryId, input.status ?? null]);
    const { value, replayed } = await this.idempotency.once(
      { ...idempotencyKey, fingerprint },
      () => this.pets.add(pet),
    );
    return { pet: value, replayed };
  }
}
