import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiClient, AuthenticatedClient } from '@pet-adoption/api-keys';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '../../platform/config/app-config';
import {
  ApiErrorResponses,
  BODY_ERRORS,
  KEY_PROTECTED_ERRORS,
} from '../../platform/http/errors/api-error-responses.decorator';
import { PageQueryDto } from '../../platform/http/request/page-query.dto';
import { ApiNamedArrayResponse } from '../../platform/http/response/api-named-array-response.decorator';
import { nextPageLink, nextPageLinkHeader } from '../../platform/http/response/next-page-link';
import {
  ConditionalRead,
  RequiresScope,
  Stability,
} from '../../platform/http/route-facts/route-facts.decorators';
import { ListCategories } from '../application/list-categories.use-case';
import { PutCategory } from '../application/put-category.use-case';
import { Category, MAX_CATEGORY_ID } from '../domain/category';
import { CategoryIdParamsDto, categoryIdOf } from './dto/category-id.params.dto';
import { CategoryUpdateDto } from './dto/category-update.dto';
import { CategoryDto } from './dto/category.dto';
import { requesterOf } from '../../platform/http/request/requester';

@ApiTags('categories')
@ApiBearerAuth()
@ApiErrorResponses(...KEY_PROTECTED_ERRORS)
@Controller('v1/categories')
export class CategoriesController {
  constructor(
    private readonly listCategories: ListCategories,
    private readonly putCategory: PutCategory,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ConditionalRead()
  @Stability('beta')
  @RequiresScope('pets:read')
  @ApiOperation({
    operationId: 'listCategories',
    summary: 'List categories',
    description:
      'Returns a page of categories in ascending id order, named or not: every `categoryId` an animal carries is one.',
  })
  @ApiNamedArrayResponse('Categories', CategoryDto, {
    status: 200,
    description: 'The list of categories',
    headers: nextPageLinkHeader('categories'),
  })
  @ApiErrorResponses('validation_failed')
  async list(
    @Query() query: PageQueryDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Category[]> {
    const limit = query.limit === undefined ? undefined : Number(query.limit);
    // No category has an id above MAX_CATEGORY_ID: after it every page is empty.
    const after =
      query.after === undefined ? undefined : Math.min(Number(query.after), MAX_CATEGORY_ID);
    const page = await this.listCategories.execute(requesterOf(client), { after, limit });
    if (page.nextAfter !== null) {
      void reply.header(
        'link',
        nextPageLink(`${this.config.http.publicBaseUrl}/categories`, {
          limit: query.limit,
          after: String(page.nextAfter),
        }),
      );
    }
    return page.categories;
  }

  @Put(':categoryId')
  @Stability('beta')
  @RequiresScope('pets:manage')
  @ApiOperation({
    operationId: 'putCategory',
    summary: 'Name a category',
    description:
      'Names the category with this id: creates it (201) when no category has the id yet, renames it (200) otherwise. ' +
      'Names are unique whatever their case; renaming a category to its own name in another case is fine.',
  })
  @ApiResponse({ status: 200, description: 'The category, renamed', type: CategoryDto })
  @ApiResponse({ status: 201, description: 'The category, created', type: CategoryDto })
  @ApiErrorResponses(...BODY_ERRORS, 'already_exists')
  async put(
    @Param() params: CategoryIdParamsDto,
    @Body() body: CategoryUpdateDto,
    @AuthenticatedClient() client: ApiClient,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Category> {
    const { category, created } = await this.putCategory.execute(
      requesterOf(client),
      categoryIdOf(params),
      body.name,
    );
    void reply.status(created ? 201 : 200);
    return category;
  }
}
