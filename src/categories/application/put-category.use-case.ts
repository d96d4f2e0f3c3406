import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { CategoryId, namedCategory } from '../domain/category';
import { CategoryRepository, Naming } from './category.repository';

@Injectable()
export class PutCategory {
  constructor(private readonly categories: CategoryRepository) {}

  /** Names the category `id` (created if new, renamed if not). */
  async execute(requester: Requester, id: CategoryId, name: string): Promise<Naming> {
    checkScope(['pets:write'], requester.scopes);
    return this.categories.name(namedCategory(id, name));
  }
}
