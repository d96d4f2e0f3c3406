import { uniqueNameKey } from '../../src/common/unique-name';
import {
  CategoryPageQuery,
  CategoryRepository,
  Naming,
} from '../../src/categories/application/category.repository';
import { Category } from '../../src/categories/domain/category';
import { CategoryNameTakenError } from '../../src/categories/domain/category.errors';

/** A CategoryRepository kept in a map, for unit tests of the use cases; one caller at a time. */
export class InMemoryCategoryRepository extends CategoryRepository {
  readonly rows = new Map<number, Category>();

  async findPage({ after = 0, limit }: CategoryPageQuery): Promise<Category[]> {
    return [...this.rows.values()]
      .filter((category) => category.id > after)
      .sort((a, b) => a.id - b.id)
      .slice(0, limit);
  }

  async name({ id, name }: Category & { name: string }): Promise<Naming> {
    const holder = [...this.rows.values()].find(
      (category) =>
        category.id !== id &&
        category.name !== null &&
        uniqueNameKey(category.name) === uniqueNameKey(name),
    );
    if (holder) throw new CategoryNameTakenError(name, { id: holder.id, name: holder.name! });
    const created = !this.rows.has(id);
    this.rows.set(id, { id, name });
    return { category: { id, name }, created };
  }
}
