import { Injectable } from '@nestjs/common';
import { HOUSE_ORGANIZATION_ID, isStaffOf } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { CategoryNamingRefusedError } from '../domain/category.errors';
import { checkScope } from '../../common/scopes';
import { CategoryId, namedCategory } from '../domain/category';
import { CategoryRepository, Naming } from './category.repository';

@Injectable()
export class PutCategory {
  constructor(private readonly categories: CategoryRepository) {}

  /**
   * Names the category `id` (created if new, renamed if not). Categories are every organisation's:
   * only the house's staff name them.
   */
  async execute(requester: Requester, id: CategoryId, name: string): Promise<Naming> {
    checkScope(['pets:manage'], requester.scopes);
    const category = namedCategory(id, name);
    if (!isStaffOf(requester, HOUSE_ORGANIZATION_ID)) throw new CategoryNamingRefusedError();
    return this.categories.name(category);
  }
}
