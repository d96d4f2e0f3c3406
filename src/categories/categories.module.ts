import { Module } from '@nestjs/common';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { CategoryRepository } from './application/category.repository';
import { ListCategories } from './application/list-categories.use-case';
import { PutCategory } from './application/put-category.use-case';
import { CategoriesController } from './http/categories.controller';
import { SqlCategoryRepository } from './infrastructure/sql-category.repository';

/** Categories of animals: every `categoryId` a pet carries is one, named by clients when they wish. */
@Feature({
  tag: { name: 'categories', description: 'Categories of animals, and their names' },
  tables: { owns: ['categories'] },
})
@Module({
  imports: [HttpModule],
  controllers: [CategoriesController],
  providers: [
    ListCategories,
    PutCategory,
    { provide: CategoryRepository, useClass: SqlCategoryRepository },
  ],
})
export class CategoriesModule {}
