import { registerDecorator } from 'class-validator';
import { IssueContext } from './validation-details';

const ENUM: IssueContext = { issue: (value) => (typeof value === 'string' ? 'enum' : 'type') };

/** The entries of a comma list: `available,pending` → ['available', 'pending']. */
export const commaList = (text: string): string[] => text.split(',');

/**
 * class-validator rule: a query value naming one or more of `choices`, separated by commas, each
 * once (`status=available,pending`). An empty entry or a repeated one is refused with the rest: a
 * list a client built wrongly says so rather than answering for part of it.
 */
export function IsCommaList(choices: readonly string[]): PropertyDecorator {
  // A value without a comma is told as a single choice's was (v1's `status` answers as before).
  const message = (property: string, value: unknown) =>
    typeof value === 'string' && value.includes(',')
      ? `${property} must be one or more of ${choices.join(', ')}, separated by commas, each once`
      : `${property} must be one of ${choices.join(', ')}`;
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCommaList',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: ENUM },
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const entries = commaList(value);
          return (
            entries.every((entry) => choices.includes(entry)) &&
            new Set(entries).size === entries.length
          );
        },
        defaultMessage: (args) => message(args?.property ?? String(propertyName), args?.value),
      },
    });
}
