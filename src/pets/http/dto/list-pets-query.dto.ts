import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, registerDecorator } from 'class-validator';
import { IsInt64Text } from '../../../platform/http/request/int64';
import { NearPageQueryDto } from '../../../platform/http/request/near-query.dto';
import { IsCommaList } from '../../../platform/http/request/comma-list.validator';
import { IsGivenOnlyWith } from '../../../platform/http/request/given-only-with.validator';
import { IsSearchText } from '../../../platform/http/request/search-text.validator';
import { IsText } from '../../../platform/http/request/text.validator';
import { SEARCH_TEXT } from '../../../common/search-text';
import { MAX_PAGE_SIZE } from '../../../common/paging';
import { PET_STATUSES } from '../../domain/pet-status';
import { GOOD_WITH, PET_AGES, PET_SEXES, PET_SIZES } from '../../domain/pet-profile-shape';
import { EXTERNAL_ID, MAX_CATEGORY_ID, MAX_PET_ID } from '../../domain/pet';
import { IsIdList } from '../../../platform/http/request/id-list.validator';
import { BREED_NAME } from '../../domain/pet-profile';

/** The most ids `id` names: a page's worth (MAX_PAGE_SIZE), so that every one fits one page. */
export const MAX_LISTED_IDS = MAX_PAGE_SIZE;

/**
 * A filter naming one or more of `choices`, comma-separated, each once. No `example` on any filter
 * of a listing: the docs page fills examples into "Try it out", which then filters what a newcomer
 * asked to see whole (CONTRACT.md "Fast feedback (v1.4)"); the choices are in the description.
 */
const CommaListFilter = (name: string, choices: readonly string[], description: string) => {
  const one = `(${choices.join('|')})`;
  return applyDecorators(
    ApiPropertyOptional({
      description: `${description}: one or more of ${choices.join(', ')}, comma-separated (v1.3)`,
      type: 'string',
      pattern: `^${one}(,${one})*$`,
    }),
    IsOptional(),
    IsString({ message: `${name} must be given once` }),
    IsCommaList(choices),
  );
};

/** `true` or `false`, as text. */
const FlagFilter = (name: string, description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      description: `${description} (v1.3)`,
      type: 'string',
      enum: ['true', 'false'],
    }),
    IsOptional(),
    IsString({ message: `${name} must be given once` }),
    IsIn(['true', 'false'], { message: `${name} must be true or false` }),
  );

/** `sort=distance` measures from `near`: without it there is nothing to measure from. */
function IsDistanceWithNear(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDistanceWithNear',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'sort=distance needs near, the point it measures from' },
      validator: {
        validate: (sort: unknown, args) =>
          sort !== 'distance' || (args?.object as ListPetsQueryDto).near !== undefined,
      },
    });
}

/** The orders a listing takes (`sort`). */
export const PET_SORTS = ['id', '-createdAt', 'name', 'random', 'distance'] as const;
export type PetSort = (typeof PET_SORTS)[number];
/** The greatest `seed`. */
export const MAX_SEED = 2 ** 31 - 1;

/**
 * `limit`, `after`, and the filters, which all combine: status, category and name (v1), and
 * v1.3's finding (CONTRACT.md "Animals worth adopting"): organisation, breed, age, sex, size, what
 * the animal is good with, house-training, special needs, photos, and a point with a radius; and
 * the order (`sort`, with `seed` for a shuffle).
 */
export class ListPetsQueryDto extends NearPageQueryDto {
  @ApiPropertyOptional({
    description: `Only the animals with these ids (v1.4): 1 to ${MAX_LISTED_IDS} ids, comma-separated, such as \`1,2,3\`; repeated ids are folded. The stable way to fetch animals by id: those that exist and are not deleted, in ascending id order (or \`sort\`'s), combined with every other filter; an id that names none is simply absent. With \`id\` and without \`limit\`, a page holds ${MAX_LISTED_IDS}: every animal named`,
    type: 'string',
    pattern: '^[1-9][0-9]*(,[1-9][0-9]*)*$',
  })
  @IsOptional()
  @IsString({ message: 'id must be given once, its ids comma-separated' })
  @IsIdList(BigInt(MAX_PET_ID), MAX_LISTED_IDS)
  id?: string;

  @CommaListFilter('status', PET_STATUSES, 'Only animals of these availability statuses')
  status?: string;

  @ApiPropertyOptional({
    description: 'Only animals of this category',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_CATEGORY_ID,
  })
  @IsOptional()
  @IsString({ message: 'categoryId must be given once' })
  @IsInt64Text(1n, BigInt(MAX_CATEGORY_ID))
  categoryId?: string;

  @ApiPropertyOptional({
    description:
      'Only animals whose name contains this text, whatever the case of either; at least 3 letters or digits; every character is literal (`%`, `_` and `\\` included)',
    minLength: SEARCH_TEXT.min,
    maxLength: SEARCH_TEXT.max,
  })
  @IsOptional()
  @IsString({ message: 'name must be given once' })
  @IsSearchText()
  name?: string;

  @ApiPropertyOptional({
    description: 'Only animals of this organisation (v1.3)',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
  })
  @IsOptional()
  @IsString({ message: 'organizationId must be given once' })
  @IsInt64Text(1n, BigInt(Number.MAX_SAFE_INTEGER))
  organizationId?: string;

  @ApiPropertyOptional({
    description:
      "Only the animal with this id in its shelter's other system (v1.4): exactly, case included; with `organizationId`, at most one",
    minLength: EXTERNAL_ID.min,
    maxLength: EXTERNAL_ID.max,
  })
  @IsOptional()
  @IsString({ message: 'externalId must be given once' })
  @IsText(EXTERNAL_ID)
  externalId?: string;

  @ApiPropertyOptional({
    description:
      'Only animals whose primary or secondary breed is this one (such as `labrador retriever`), whatever the case of either (v1.3)',
    minLength: BREED_NAME.min,
    maxLength: BREED_NAME.max,
  })
  @IsOptional()
  @IsString({ message: 'breed must be given once' })
  @IsText(BREED_NAME)
  breed?: string;

  @CommaListFilter('age', PET_AGES, 'Only animals of these age groups')
  age?: string;

  @CommaListFilter('sex', PET_SEXES, 'Only animals of these sexes')
  sex?: string;

  @CommaListFilter('size', PET_SIZES, 'Only animals of these sizes')
  size?: string;

  @CommaListFilter(
    'goodWith',
    GOOD_WITH,
    'Only animals whose shelter says they are good with each of these',
  )
  goodWith?: string;

  @FlagFilter('houseTrained', 'Only animals that are (true) or are not (false) house-trained')
  houseTrained?: string;

  @FlagFilter('specialNeeds', 'Only animals that have (true) or have not (false) special needs')
  specialNeeds?: string;

  @ApiPropertyOptional({
    description: 'Only animals with at least one photo (v1.3)',
    type: 'string',
    enum: ['true'],
  })
  @IsOptional()
  @IsString({ message: 'hasPhotos must be given once' })
  @IsIn(['true'], {
    message: 'hasPhotos must be true (leave it out to have animals with photos or without)',
  })
  hasPhotos?: string;

  @ApiPropertyOptional({
    description:
      'The order (v1.3): `id` (the default), `-createdAt` (newest first), `name`, `random` (shuffled the same way on every page for one `seed`), or `distance` (nearest first, with `near`); ties go by id. `Link` carries it',
    type: 'string',
    enum: PET_SORTS,
  })
  @IsOptional()
  @IsString({ message: 'sort must be given once' })
  @IsIn(PET_SORTS, { message: `sort must be one of ${PET_SORTS.join(', ')}` })
  @IsDistanceWithNear()
  sort?: string;

  @ApiPropertyOptional({
    description:
      'With `sort=random`: which shuffle, an integer from 0 to 2147483647; the same seed gives the same order on every page. Left out, the service picks one, and `Link` carries it (v1.3)',
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_SEED,
  })
  @IsOptional()
  @IsString({ message: 'seed must be given once' })
  @IsInt64Text(0n, BigInt(MAX_SEED))
  @IsGivenOnlyWith('sort', 'random')
  seed?: string;
}
