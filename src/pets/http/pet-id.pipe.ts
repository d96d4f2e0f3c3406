import { Injectable, PipeTransform } from '@nestjs/common';
import { ApiError } from '../../platform/http/errors/api-error';
import { INT64_MAX, parseInt64 } from '../../platform/http/request/int64';
import { MAX_PET_ID, PetId } from '../domain/pet';
import { PetNotFoundError } from '../domain/pet.errors';

/**
 * Parses a pet id exactly: an integer from 1 to 2^63 - 1, as text, never rounded (else a 400).
 * Above 2^53 - 1 no pet can have it (domain/pet.ts): that is a 404, with the id as written.
 */
@Injectable()
export class PetIdPipe implements PipeTransform<string, PetId> {
  transform(value: string): PetId {
    const id = parseInt64(value, 1n);
    if (id === null) {
      throw new ApiError('validation_failed', `petId must be an integer from 1 to ${INT64_MAX}.`);
    }
    if (id > BigInt(MAX_PET_ID)) throw new PetNotFoundError(value);
    return Number(id);
  }
}
