import { characterProblem } from '../../../common/text';
import { ErrorDetail } from '../errors/api-error';
import { takesLines } from './text.validator';

type Described = { fieldNames?: Record<string, string> };

/**
 * The first string anywhere in a validated input (a body, a query, path parameters, headers an
 * operation takes) that holds a character no client string may hold (src/common/text.ts,
 * `characterProblem`), as the detail that refuses it; or null. Every string member of every DTO
 * passes here, whatever its own rules: a URL, a date, an id, an enum value, a query filter.
 * Members whose IsText bounds say `multiline` may hold tab and line breaks.
 */
export function clientTextProblem(input: unknown, path = '', lines = false): ErrorDetail | null {
  if (typeof input === 'string') {
    const problem = characterProblem(input, lines);
    if (problem === null) return null;
    const field = path || 'value';
    return { field, issue: 'format', message: `${field} ${problem}.` };
  }
  // Bytes (an image's body) are no text; only what JSON and query parsing made is walked.
  if (typeof input !== 'object' || input === null || ArrayBuffer.isView(input)) return null;
  if (Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      const detail = clientTextProblem(input[i], `${path}.${i}`);
      if (detail) return detail;
    }
    return null;
  }
  const type = input.constructor as Described;
  for (const [member, value] of Object.entries(input)) {
    const name = type.fieldNames?.[member] ?? member;
    const detail = clientTextProblem(
      value,
      path ? `${path}.${name}` : name,
      type !== Object && takesLines(type, member),
    );
    if (detail) return detail;
  }
  return null;
}
