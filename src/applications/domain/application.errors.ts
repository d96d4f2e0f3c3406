import { DomainError } from '../../common/domain-error';
import { ApplicationStatus } from './application';
import { Problem } from './questionnaire';

/** The pet an application is for does not exist (or is deleted): a 404. */
export class PetNotFoundError extends DomainError {
  readonly code = 'not_found';

  /** `id` as the client wrote it: it may be beyond any id a pet can have. */
  constructor(id: number | string) {
    super(`No pet with id ${id}.`);
  }
}

/**
 * No application with that id for this key: none at all, or one it may not read (neither the
 * applicant's key nor staff of the pet's organisation). Its existence is not revealed.
 */
export class ApplicationNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(id: number | string) {
    super(`No application with id ${id}.`);
  }
}

export class OrganizationNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(id: number | string) {
    super(`No organization with id ${id}.`);
  }
}

/** Input that breaks a rule only the domain knows (answers against their questionnaire). */
export class InvalidApplicationError extends DomainError {
  readonly code = 'validation_failed';

  constructor(readonly details: readonly Problem[]) {
    super(details.map((d) => d.message).join('; ') + '.');
  }
}

/** The pet cannot be applied for or approved: sold, deleted, held by hand or by another order. */
export class PetNotAvailableError extends DomainError {
  readonly code = 'pet_not_available';

  constructor(petId: number, why: string) {
    super(`Pet ${petId} is not available: ${why}.`);
  }
}

export class DuplicateApplicationError extends DomainError {
  readonly code = 'duplicate_application';

  constructor(petId: number) {
    super(
      `This API key already has an open application for pet ${petId} with this applicant's email.`,
    );
  }
}

export class ApplicationLimitError extends DomainError {
  readonly code = 'limit_reached';

  constructor(limit: number) {
    super(`This API key already has ${limit} open applications, as many as its plan allows.`);
  }
}

export class ApplicationTransitionError extends DomainError {
  readonly code = 'invalid_transition';

  constructor(id: number, from: ApplicationStatus, to: string) {
    super(`Application ${id} cannot move from ${from} to ${to} by this key.`);
  }
}

/** A change that only the other audience may make, or a member only one of them sends. */
export class ApplicationChangeRefusedError extends DomainError {
  readonly code = 'validation_failed';
}

export class ApplicationVersionMismatchError extends DomainError {
  readonly code = 'precondition_failed';

  constructor(what: string, version: number) {
    super(
      `${what} is at version ${version} (ETag "${version}"), not one the request's If-Match names: ` +
        'it changed since it was read. Nothing was changed; read it again before changing it.',
    );
  }
}
