import { TextBounds, textProblem } from '../../common/text';
import { mixedScriptProblem } from '../../common/unique-name';
import { InvalidCategoryError } from './category.errors';

/** A category's name, in Unicode code points. */
export const CATEGORY_NAME: TextBounds = { min: 1, max: 50 };

/**
 * A category's id: chosen by the client, as pets' `categoryId` always was, from 1 to 2^53 - 1 (the
 * integers every JSON client carries exactly).
 */
export type CategoryId = number;
export const MAX_CATEGORY_ID: CategoryId = Number.MAX_SAFE_INTEGER;

/**
 * A kind of animal. A category exists as soon as a pet names it, unnamed (`name` null) until a
 * client names it; no two categories have the same name, as the unique-name rule compares names
 * (common/unique-name.ts: case, width, invisible characters), and no name mixes scripts in a word.
 */
export interface Category {
  readonly id: CategoryId;
  readonly name: string | null;
}

/** The category `id` named `name`, enforcing what every name satisfies. */
export function namedCategory(id: CategoryId, name: string): Category & { name: string } {
  if (!Number.isInteger(id) || id < 1 || id > MAX_CATEGORY_ID) {
    throw new InvalidCategoryError(`categoryId must be an integer from 1 to ${MAX_CATEGORY_ID}.`);
  }
  const problem = textProblem(name, CATEGORY_NAME) ?? mixedScriptProblem(name);
  if (problem) throw new InvalidCategoryError(`name ${problem}.`);
  return { id, name };
}
