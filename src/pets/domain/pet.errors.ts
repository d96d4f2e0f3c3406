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

export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'idempotency_key_reused';

  constructor() {
    super('This Idempotency-Key was already used with a different body.');
  }
}
