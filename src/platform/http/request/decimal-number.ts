import { Transform } from 'class-transformer';
import { InexactNumber } from './json-numbers';

/**
 * A body field that takes a decimal (a latitude): the number its literal writes, to the nearest
 * double, where every other field refuses a literal that is no plain integer (json-numbers). The
 * field's own rules (a number, its range) then apply as to any number.
 */
export const DecimalNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    value instanceof InexactNumber ? value.value : value,
  );
