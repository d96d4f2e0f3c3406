import { registerDecorator } from 'class-validator';
import { dateTimeProblem } from '../../../common/date-time';

/** class-validator rule: an RFC 3339 date-time that exists (src/common/date-time.ts). */
export function IsDateTime(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDateTime',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !dateTimeProblem(value),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `${args.property} ${dateTimeProblem(args.value)}`
            : `${args?.property} must be a string`,
      },
    });
}
