import { registerDecorator, ValidationOptions } from 'class-validator';
import { IssueContext } from './validation-details';

export const INT64_MAX = 9223372036854775807n;

/**
 * Parses decimal text as an integer from `min` to `max` (an int64 by default) exactly, never
 * through a float, or returns null.
 */
export function parseInt64(text: unknown, min: bigint, max = INT64_MAX): bigint | null {
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]{0,18})$/.test(text)) return null;
  const value = BigInt(text);
  return value >= min && value <= max ? value : null;
}

/**
 * Why a path or query value is no integer in bounds: an integer written plainly is out of range,
 * one written otherwise (`01`, `+1`) badly formatted, anything else not an integer at all.
 */
const INT64_ISSUE: IssueContext = {
  issue: (value) =>
    typeof value !== 'string' || !/^[+-]?\d+$/.test(value)
      ? 'type'
      : /^-?(0|[1-9]\d*)$/.test(value)
        ? 'range'
        : 'format',
};

/** class-validator rule: the text is an integer from `min` to `max` (2^63 - 1 by default). */
export function IsInt64Text(
  min: bigint,
  max = INT64_MAX,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isInt64Text',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property must be an integer from ${min} to ${max}`,
        context: INT64_ISSUE,
        ...options,
      },
      validator: { validate: (value: unknown) => parseInt64(value, min, max) !== null },
    });
}
