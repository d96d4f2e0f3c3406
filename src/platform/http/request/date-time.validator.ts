import { registerDecorator } from 'class-validator';
import { IssueContext } from './validation-details';

const DATE_TIME: IssueContext = {
  issue: (value) => (typeof value === 'string' ? 'format' : 'type'),
};
import { dateTimeProblem } from '../../../common/date-time';

/** class-validator rule: an RFC 3339 date-time that exists (src/common/date-time.ts). */
export function IsDateTime(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDateTime',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: DATE_TIME },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !dateTimeProblem(value),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `${args.property} ${dateTimeProblem(args.value)}`
            : `${args?.property} must be a string`,
      },
    });
}
