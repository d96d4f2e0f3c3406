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

/** An open order holds the pet: it owns the pet's status, and the pet cannot be deleted. */
export class PetHasOpenOrderError extends DomainError {
  readonly code = 'pet_has_open_order';

  /** `refused`: what cannot be done, ending a sentence ("its status cannot change"). */
  constructor(id: number, refused: string) {
    super(
      `Pet ${id} has an open order, which owns it until the order is delivered or cancelled: ${refused}.`,
    );
  }
}

/** The client's precondition names a version the pet no longer has (or never had). */
export class PetVersionMismatchError extends DomainError {
  readonly code = 'precondition_failed';

  constructor(id: number, version: number) {
    super(
      `Pet ${id} is at version ${version} (ETag "${version}"), not one the request's If-Match names: ` +
        'it changed since it was read. Nothing was changed; read it again before changing it.',
    );
  }
}
