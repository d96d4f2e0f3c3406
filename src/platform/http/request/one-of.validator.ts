import { registerDecorator } from 'class-validator';
import { IssueContext } from './validation-details';

const ENUM: IssueContext = { issue: 'enum' };

/**
 * class-validator rule: one of a list known only at validation time (the event types the
 * features declared, say), where `@IsIn` takes its list when the class is declared.
 */
export function IsOneOf(values: () => readonly string[]): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isOneOf',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: ENUM },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && values().includes(value),
        defaultMessage: (args) => `${args?.property} must be one of ${values().join(', ')}`,
      },
    });
}
