import { DomainError } from '../../common/domain-error';

export class InvalidOrganizationError extends DomainError {
  readonly code = 'validation_failed';
}

export class OrganizationNotFoundError extends DomainError {
  readonly code = 'not_found';

  /** `id` as the client wrote it. */
  constructor(id: number | string) {
    super(`No organization with id ${id}.`);
  }
}

/** Another organisation has the name, as the unique-name rule compares names. */
export class OrganizationNameTakenError extends DomainError {
  readonly code = 'already_exists';

  constructor(name: string) {
    super(
      `Another organization is already named ${JSON.stringify(name)} (names are compared ignoring case, width and invisible characters).`,
    );
  }
}

/** The client's precondition names a version the organisation no longer has. */
export class OrganizationVersionMismatchError extends DomainError {
  readonly code = 'precondition_failed';

  constructor(id: number, version: number) {
    super(
      `Organization ${id} is at version ${version} (ETag "${version}"), not one the request's If-Match names: ` +
        'it changed since it was read. Nothing was changed; read it again before changing it.',
    );
  }
}
