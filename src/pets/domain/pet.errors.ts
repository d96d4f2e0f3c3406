import { DomainError } from '../../common/domain-error';

export class PetNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(id: bigint) {
    super(`No pet with id ${id}.`);
  }
}

export class InvalidPetError extends DomainError {
  readonly code = 'validation_failed';
}
