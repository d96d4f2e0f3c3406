import { registerDecorator, ValidationOptions } from 'class-validator';
import { codePointLength, TextBounds, textProblem } from '../../../common/text';
import { IssueContext } from './validation-details';

/** Why a value breaks the text rule: no string, a length out of bounds, or a character refused. */
const textIssue = ({ min, max }: TextBounds): IssueContext => ({
  issue: (value) => {
    if (typeof value !== 'string') return 'type';
    const length = codePointLength(value);
    return length < min || length > max ? 'range' : 'format';
  },
});

/** class-validator rule: a string obeying the one text rule (src/common/text.ts). */
export function IsText(bounds: TextBounds, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isText',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: textIssue(bounds), ...options },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !textProblem(value, bounds),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `${args.property} ${textProblem(args.value, bounds)}`
            : `${args?.property} must be a string`,
      },
    });
}
