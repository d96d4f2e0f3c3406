import { registerDecorator } from 'class-validator';
import { commaList } from './comma-list.validator';
import { parseInt64 } from './int64';
import { IssueContext } from './validation-details';

/**
 * The ids of a comma list (`id=3,1,3`), ascending, each once: a repeated id is folded, since the
 * answer is a set of resources in the listing's order, never one per mention.
 */
export const idList = (text: string): number[] =>
  [...new Set(commaList(text).map(Number))].sort((a, b) => a - b);

/**
 * Why an id list is refused: too many entries is a range, so is an id out of bounds written
 * plainly; anything else (an empty entry, `01`, `x`) a format.
 */
const issueOf =
  (max: bigint, most: number): IssueContext['issue'] =>
  (value) => {
    if (typeof value !== 'string') return 'type';
    const entries = commaList(value);
    if (entries.length > most) return 'range';
    return entries.every((entry) => /^(0|[1-9]\d*)$/.test(entry)) &&
      entries.some((entry) => parseInt64(entry, 1n, max) === null)
      ? 'range'
      : 'format';
  };

/**
 * class-validator rule: a query value of at most `most` ids, comma-separated, each an integer from
 * 1 to `max` written plainly (`?id=1,2,3`). Repeats are allowed and folded (idList); an empty
 * entry or an id out of bounds refuses the whole list, as every list filter does.
 */
export function IsIdList(max: bigint, most: number): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isIdList',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        context: { issue: issueOf(max, most) } satisfies IssueContext,
        message: (args) =>
          typeof args.value === 'string' && commaList(args.value).length > most
            ? `${args.property} names at most ${most} ids (${commaList(args.value).length} given)`
            : `${args.property} must be one or more ids from 1 to ${max}, comma-separated`,
      },
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const entries = commaList(value);
          return (
            entries.length <= most && entries.every((entry) => parseInt64(entry, 1n, max) !== null)
          );
        },
      },
    });
}
