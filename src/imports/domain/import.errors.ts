import { DomainError } from '../../common/domain-error';

export class ImportNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(id: number | string) {
    super(`No import with id ${id} of your organisation.`);
  }
}

export class OrganizationNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(id: number | string) {
    super(`No organisation with id ${id}.`);
  }
}

/** Imports add to the key's own organisation: a key of none has nowhere to import to. */
export class NoOrganizationToImportToError extends DomainError {
  readonly code = 'forbidden';

  constructor() {
    super(
      "Imports add animals to the key's own organisation, and this key belongs to none: use a key of the shelter's staff.",
    );
  }
}
