import { registerDecorator } from 'class-validator';
import { dateTimeProblem, fullDateProblem } from '../../../common/date-time';
import { IssueContext } from './validation-details';

const DATE_TIME: IssueContext = {
  issue: (value) => (typeof value === 'string' ? 'format' : 'type'),
};

/** A class-validator rule for a string that `problem` accepts (null), its message otherwise. */
function textRule(name: string, problem: (text: string) => string | null): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: DATE_TIME },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !problem(value),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `${args.property} ${problem(args.value)}`
            : `${args?.property} must be a string`,
      },
    });
}

/** class-validator rule: an RFC 3339 date-time that exists (src/common/date-time.ts). */
export const IsDateTime = (): PropertyDecorator => textRule('isDateTime', dateTimeProblem);

/**
 * class-validator rule: an RFC 3339 full-date that exists (`2024-03-01`), a calendar day. Keep it
 * as text from request to column and back: PostgreSQL's `date` read through pg becomes a
 * JavaScript Date at local midnight, a day off east of UTC; select it `to_char(day, 'YYYY-MM-DD')`.
 */
export const IsFullDate = (): PropertyDecorator => textRule('isFullDate', fullDateProblem);
