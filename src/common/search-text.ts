import { TextBounds, textProblem } from './text';

/** What a name search may be: 1 to 100 code points, of which at least 3 letters or digits. */
export const SEARCH_TEXT: TextBounds = { min: 1, max: 100 };
const MEANINGFUL = 3;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

/**
 * Why a name search is refused, or null. Fewer than three letters or digits match too much to
 * find anything by (and no trigram index can serve them: every row would be read), so they are
 * refused rather than answered slowly.
 */
export function searchTextProblem(text: string): string | null {
  const problem = textProblem(text, SEARCH_TEXT);
  if (problem) return problem;
  const meaningful = text.match(LETTER_OR_DIGIT)?.length ?? 0;
  return meaningful < MEANINGFUL ? `must hold at least ${MEANINGFUL} letters or digits` : null;
}
