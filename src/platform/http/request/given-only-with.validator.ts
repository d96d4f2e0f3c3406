import { registerDecorator } from 'class-validator';

/**
 * class-validator rule: the parameter is taken only beside `other` with the value `value` (a
 * `seed` only with `sort=random`): given alone, it would be ignored, which a client would never
 * learn. Absent, it passes.
 */
export function IsGivenOnlyWith(other: string, value: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isGivenOnlyWith',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property is taken only with ${other}=${value}: give ${other}=${value}, or leave $property out`,
      },
      validator: {
        validate: (given: unknown, args) =>
          given === undefined || (args?.object as Record<string, unknown>)[other] === value,
      },
    });
}
