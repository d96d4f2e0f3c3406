/**
 * What a client's precondition (If-Match) asks of a resource's version (a pet's, an
 * organisation's) before a change: that it exists at all (`*`), or that its version is one of
 * those it names. No precondition: the last write wins.
 */
export type VersionPrecondition =
  | { readonly anyVersion: true }
  | { readonly anyVersion: false; readonly versions: readonly number[] };

/** The largest version a resource can have (the columns are 32-bit integers). */
export const MAX_VERSION = 2 ** 31 - 1;

/** Whether a resource at `version` meets the precondition (none is always met). */
export function admits(precondition: VersionPrecondition | undefined, version: number): boolean {
  return !precondition || precondition.anyVersion || precondition.versions.includes(version);
}

/** The versions to compare in the database's statement, or null when any version will do. */
export function versionsOf(precondition: VersionPrecondition | undefined): number[] | null {
  return !precondition || precondition.anyVersion ? null : [...precondition.versions];
}
