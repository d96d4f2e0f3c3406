import { Category, CategoryId } from '../domain/category';

export interface CategoryPageQuery {
  /** Only categories whose id is greater than this (keyset pagination). */
  after?: CategoryId;
  limit: number;
}

export interface Naming {
  category: Category;
  /** True when no category had this id before: it was created by this naming. */
  created: boolean;
}

/**
 * Port: where categories are kept. Pages are ordered by ascending id. Names are unique without
 * regard to case, under any concurrency: `name` throws CategoryNameTakenError for a name another
 * category has.
 */
export abstract class CategoryRepository {
  abstract findPage(query: CategoryPageQuery): Promise<Category[]>;

  /** Names the category `id`, creating it if no category has that id. */
  abstract name(category: Category & { name: string }): Promise<Naming>;
}
