import { registerDecorator } from 'class-validator';
import { IssueContext } from './validation-details';

const SEARCH: IssueContext = {
  issue: (value) => (typeof value === 'string' ? 'format' : 'type'),
};
import { searchTextProblem } from '../../../common/search-text';

/** class-validator rule: a name search (src/common/search-text.ts). */
export function IsSearchText(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isSearchText',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: SEARCH },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !searchTextProblem(value),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `${args.property} ${searchTextProblem(args.value)}`
            : `${args?.property} must be a string`,
      },
    });
}
