import { Injectable } from '@nestjs/common';
import { uniqueNameKey } from '../../common/unique-name';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { CategoryPageQuery, CategoryRepository, Naming } from '../application/category.repository';
import { Category } from '../domain/category';
import { CategoryNameTakenError } from '../domain/category.errors';

interface CategoryRow {
  id: string;
  name: string | null;
}

const toDomain = (row: CategoryRow): Category => ({ id: Number(row.id), name: row.name });

const PAGE: SqlStatement = {
  name: 'categories_page',
  text: 'SELECT id, name FROM categories WHERE id > $1 ORDER BY id LIMIT $2',
};
/**
 * Creates the category or renames it, in one statement: two namings of one new id at once end
 * as one creation and one renaming. A tuple the statement inserted has no `xmax`; one it updated
 * carries the lock the conflict took.
 */
const NAME: SqlStatement = {
  name: 'categories_name',
  text: `INSERT INTO categories (id, name, name_key) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, name_key = EXCLUDED.name_key
         RETURNING id, name, (xmax = 0) AS created`,
};
const HOLDER: SqlStatement = {
  name: 'categories_holder',
  text: 'SELECT id, name FROM categories WHERE name_key = $1',
};
/** The unique index of the names' keys (CategoryNameKeys1795231100000). */
const UNIQUE_NAME = 'categories_name_key_unique';

@Injectable()
export class SqlCategoryRepository extends CategoryRepository {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async findPage({ after = 0, limit }: CategoryPageQuery): Promise<Category[]> {
    return (await this.sql.query<CategoryRow>(PAGE, [after, limit])).map(toDomain);
  }

  async name({ id, name }: Category & { name: string }): Promise<Naming> {
    try {
      const [row] = await this.sql.query<CategoryRow & { created: boolean }>(NAME, [
        String(id),
        name,
        uniqueNameKey(name),
      ]);
      return { category: toDomain(row), created: row.created };
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code !== '23505' || constraint !== UNIQUE_NAME) throw error;
      // Which category has it, to say so; it may have been renamed since (then unnamed here).
      const [holder] = await this.sql.query<{ id: string; name: string }>(HOLDER, [
        uniqueNameKey(name),
      ]);
      throw new CategoryNameTakenError(
        name,
        holder ? { id: Number(holder.id), name: holder.name } : undefined,
      );
    }
  }
}
