import { registerDecorator, ValidationOptions } from 'class-validator';
import { TextBounds, textProblem } from '../../../common/text';

/** class-validator rule: a string obeying the one text rule (src/common/text.ts). */
export function IsText(bounds: TextBounds, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isText',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !textProblem(value, bounds),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `${args.property} ${textProblem(args.value, bounds)}`
            : `${args?.property} must be a string`,
      },
    });
}
