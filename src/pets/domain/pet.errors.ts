import { DomainError } from '../../common/domain-error';

export class PetNotFoundError extends DomainError {
  readonly code = 'not_found';

  /** `id` as the client wrote it: it may be beyond any id a pet can have. */
  constructor(id: number | string) {
    super(`No pet with id ${id}.`);
  }
}

export class InvalidPetError extends DomainError {
  readonly code = 'validation_failed';
}
