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

/** Another live pet of the organisation already carries the external id (v1.4). */
export class PetExternalIdTakenError extends DomainError {
  readonly code = 'already_exists';

  constructor(externalId: string) {
    super(
      `Another animal of this organisation already has externalId ${JSON.stringify(externalId)}: ` +
        'an external id names one animal. Find it with GET /v1/pets?externalId=, or choose another.',
    );
  }
}
