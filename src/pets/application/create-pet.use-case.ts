import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { newPet, NewPetInput, Pet } from '../domain/pet';
import { IdempotencyKeyReusedError } from '../domain/pet.errors';
import { IDEMPOTENCY_TTL_SECONDS } from '../../platform/idempotency/idempotency';
import { PetRepository } from './pet.repository';

export interface Idempotency {
  scope: string;
  key: string;
}

export interface Creation {
  pet: Pet;
  /** True when this answers a retry: the pet was created by an earlier request. */
  replayed: boolean;
}

@Injectable()
export class CreatePet {
  constructor(private readonly pets: PetRepository) {}

  async execute(input: NewPetInput, idempotency?: Idempotency): Promise<Creation> {
    const pet = newPet(input);
    if (!idempotency) return { pet: await this.pets.add(pet), replayed: false };

    // The fingerprint is of the request as sent: a retry omitting `status` is not the same
    // request as one giving `status: "available"`.
    const requestHash = createHash('sha256')
      .update(JSON.stringify([input.name, input.categoryId, input.status ?? null]))
      .digest('hex');
    const result = await this.pets.addOnce(pet, {
      ...idempotency,
      requestHash,
      ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
    });
    if (result.outcome === 'key_reused') throw new IdempotencyKeyReusedError();
    return { pet: result.pet, replayed: result.outcome === 'replayed' };
  }
}
