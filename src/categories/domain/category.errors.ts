import { DomainError } from '../../common/domain-error';

export class InvalidCategoryError extends DomainError {
  readonly code = 'validation_failed';
}

/** Names are unique whatever their case: another category already has this one. */
export class CategoryNameTakenError extends DomainError {
  readonly code = 'already_exists';

  /** `holder`: the category that has the name (as it spells it), when it is known. */
  constructor(name: string, holder?: { id: number; name: string }) {
    super(
      `${holder ? `Category ${holder.id}` : 'Another category'} is already named ` +
        `${JSON.stringify(holder?.name ?? name)} (names are compared without regard to case).`,
    );
  }
}

/**
 * Categories are shared by every organisation, so only the house's staff (organisation 1's, with
 * `pets:manage`) name them: another organisation's staff may not, whatever its scopes.
 */
export class CategoryNamingRefusedError extends DomainError {
  readonly code = 'forbidden';

  constructor() {
    super(
      'Categories are shared by every organisation: only the staff of organisation 1 name them. Name the category by its id in your pets (categoryId) instead.',
    );
  }
}
