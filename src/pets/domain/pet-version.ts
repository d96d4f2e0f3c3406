/**
 * What a client's precondition (If-Match) asks of a pet's version before a change: that the pet
 * exists at all (`*`), or that its version is one of those it names. No precondition: the last
 * write wins.
 */
export type VersionPrecondition =
  | { readonly anyVersion: true }
  | { readonly anyVersion: false; readonly versions: readonly number[] };

/** The largest version a pet can have (the column is a 32-bit integer). */
export const MAX_PET_VERSION = 2 ** 31 - 1;

/** Whether a pet at `version` meets the precondition (none is always met). */
export function admits(precondition: VersionPrecondition | undefined, version: number): boolean {
  return !precondition || precondition.anyVersion || precondition.versions.includes(version);
}

/** The versions to compare in the database's statement, or null when any version will do. */
export function versionsOf(precondition: VersionPrecondition | undefined): number[] | null {
  return !precondition || precondition.anyVersion ? null : [...precondition.versions];
}
