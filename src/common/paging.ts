/** Listings: how many items a page holds unless asked, and at most. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface KeysetPage<T> {
  items: T[];
  /** Id to pass as `after` for the next page, or null when this page is the last. */
  nextAfter: number | null;
}

/**
 * A page of `limit` items from rows fetched in ascending id with one extra: the extra row tells
 * whether another page exists without a count query.
 */
export function keysetPage<T extends { id: number }>(rows: T[], limit: number): KeysetPage<T> {
  const items = rows.slice(0, limit);
  return { items, nextAfter: rows.length > limit ? items[items.length - 1].id : null };
}
