import { registerDecorator } from 'class-validator';
import { IssueContext } from './validation-details';

const DATE_TIME: IssueContext = {
  issue: (value) => (typeof value === 'string' ? 'format' : 'type'),
};
import { dateTimeProblem, fullDateProblem } from '../../../common/date-time';

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

/**
 * class-validator rule: an RFC 3339 full-date that exists (`2024-03-01`), a calendar day. Keep it
 * as text from request to column and back: PostgreSQL's `date` read through pg becomes a
 * JavaScript Date at local midnight, a day off east of UTC; select it `to_char(day, 'YYYY-MM-DD')`.
 */
export function IsFullDate(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isFullDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: DATE_TIME },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !fullDateProblem(value),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `${args.property} ${fullDateProblem(args.value)}`
            : `${args?.property} must be a string`,
      },
    });
}
