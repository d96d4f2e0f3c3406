import { getMetadataStorage, registerDecorator, ValidationOptions } from 'class-validator';
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

/** Per input class, its members whose text is prose of several lines; found once a class. */
const proseMembers = new WeakMap<object, Set<string>>();

/**
 * Whether a member of an input class takes tab and line breaks: its IsText bounds say
 * `multiline`. Read from class-validator's own metadata, which mapped types (PartialType,
 * PickType) and subclasses inherit, so a DTO derived from another keeps its prose members.
 */
export function takesLines(type: object, member: string): boolean {
  let members = proseMembers.get(type);
  if (!members) {
    members = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type as new () => object, '', true, false)
        .filter(({ name, constraints }) => name === 'isText' && constraints?.[0]?.multiline)
        .map(({ propertyName }) => propertyName),
    );
    proseMembers.set(type, members);
  }
  return members.has(member);
}

/** class-validator rule: a string obeying the one text rule (src/common/text.ts). */
export function IsText(bounds: TextBounds, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isText',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [bounds],
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
