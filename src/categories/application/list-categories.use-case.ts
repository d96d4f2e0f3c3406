import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, keysetPage } from '../../common/paging';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Category, CategoryId } from '../domain/category';
import { CategoryRepository } from './category.repository';

export interface ListCategoriesQuery {
  after?: CategoryId;
  limit?: number;
}

export interface CategoryPage {
  categories: Category[];
  /** Id to pass as `after` for the next page, or null when this page is the last. */
  nextAfter: CategoryId | null;
}

@Injectable()
export class ListCategories {
  constructor(private readonly categories: CategoryRepository) {}

  async execute(
    requester: Requester,
    { after, limit = DEFAULT_PAGE_SIZE }: ListCategoriesQuery,
  ): Promise<CategoryPage> {
    checkScope(['pets:read'], requester.scopes);
    const rows = await this.categories.findPage({ after, limit: limit + 1 });
    const { items: categories, nextAfter } = keysetPage(rows, limit);
    return { categories, nextAfter };
  }
}
